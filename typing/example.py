"""A typed tour of the public API, checked by ``mypy --strict`` (tests/test_typing.py).

It is also a program: ``python typing/example.py`` runs it and checks the answers it knows."""
from __future__ import annotations

import numpy as np
import numpy.typing as npt

import handrank as hr
from handrank import high, high3, low27, lowa5


def main() -> None:
    ace: int = hr.card("As")
    hand_ids: list[int] = hr.cards("As Ks Qs Js Ts")
    ace_text: str = hr.card_str(ace)
    hand_text: str = hr.hand_str(hand_ids)
    assert (ace, ace_text, hand_text) == (51, "As", "As Ks Qs Js Ts")

    royal: int = hr.evaluate("As Ks Qs Js Ts")
    from_ids: int = high.evaluate(hand_ids)
    from_strings: int = high.evaluate(["As", "Ks", "Qs", "Js", "Ts", "2c", "3d"])
    assert royal == from_ids == from_strings == high.MAX_VALUE

    kind: high.Category = high.category(royal)
    words: str = high.describe(royal)
    assert kind is high.Category.STRAIGHT_FLUSH and words == "Royal flush"

    hands: npt.NDArray[np.uint8] = hr.random_hands(1000, 7, seed=1)
    values: npt.NDArray[np.uint16] = high.evaluate_batch(hands, threads=2)
    into: npt.NDArray[np.uint16] = np.empty(len(hands), dtype=np.uint16)
    same: npt.NDArray[np.uint16] = high.evaluate_batch(hands, out=into)
    assert same is into and bool((values == into).all())
    counts: npt.NDArray[np.int64] = high.count_all(5)
    assert int(counts.sum()) == 2_598_960

    trips: int = high3.evaluate("Qs Qh Qd")
    top: npt.NDArray[np.uint16] = high3.evaluate_batch(hr.random_hands(10, 3, seed=2))
    trips_kind: high.Category = high3.category(trips)
    trips_words: str = high3.describe(trips)
    assert trips_kind is high.Category.THREE_OF_A_KIND and top.shape == (10,)
    print(trips_words)

    wheel27: int = low27.evaluate("7c 5d 4h 3s 2c")
    lows27: npt.NDArray[np.uint16] = low27.evaluate_batch(hr.random_hands(10, 5, seed=3))
    low27_kind: high.Category = low27.category(wheel27)
    low27_words: str = low27.describe(wheel27)
    assert wheel27 == low27.MAX_VALUE and low27_kind is high.Category.HIGH_CARD
    print(low27_words, lows27.dtype)

    wheel: int = lowa5.evaluate([12 * 4, 0, 4, 8, 12])
    lowsa5: npt.NDArray[np.uint16] = lowa5.evaluate_batch(hr.random_hands(100, 7, seed=4))
    qualifies: bool = lowa5.qualifies8(wheel)
    qualify_mask: npt.NDArray[np.bool_] = lowa5.qualifies8_batch(lowsa5)
    lowa5_kind: high.Category = lowa5.category(wheel)
    lowa5_words: str = lowa5.describe(wheel)
    assert qualifies and wheel == lowa5.MAX_VALUE and lowa5_kind is high.Category.HIGH_CARD
    print(lowa5_words, int(qualify_mask.sum()), "of 100 razz hands qualify")



def ofc_play() -> None:
    """OFC at bot speed (issue 32): action ids and lazy placements of ofc.Game, ofc.vector."""
    from handrank import ofc
    from handrank.ofc.vector import Step, VectorEnv

    game = ofc.Game(2, "pineapple", seed=1)
    ids: npt.NDArray[np.int64] = game.legal_actions()
    options: ofc.Placements = game.legal_placements()
    first: ofc.Placement = options[0]
    made: ofc.Placement = game.play_action(int(ids[0]))
    assert made == first and len(options) == len(ids)
    env = VectorEnv(4, rules="pineapple", players=2, seed=2, threads=1)
    step: Step = env.reset()
    chosen: npt.NDArray[np.int64] = env.sample_legal(np.random.default_rng(3))
    step = env.step(chosen)
    rewards: npt.NDArray[np.float32] = step.rewards
    mask = step.legal_mask
    assert mask is not None and mask.shape == (4, 1024) and rewards.shape == (4, 2)


def bigtwo_vector() -> None:
    """handrank.bigtwo.vector (issue 32): N games stepped together."""
    from handrank.bigtwo.vector import Step, VectorEnv

    env = VectorEnv(8, players=4, seed=1, legal="compact")
    step: Step = env.reset()
    actions: npt.NDArray[np.int64] = env.sample_legal(np.random.default_rng(0))
    step = env.step(actions)
    ids: npt.NDArray[np.int32] | None = step.legal_ids
    rewards: npt.NDArray[np.float32] = step.rewards
    hands, stock = env.hands(0)
    first: list[int] = hands[0]
    assert ids is not None and rewards.shape == (8, 4) and stock == [] and len(first) <= 13
    print(env.num_actions, int(step.terminated.sum()))


if __name__ == "__main__":
    main()
    ofc_play()
    bigtwo_vector()
