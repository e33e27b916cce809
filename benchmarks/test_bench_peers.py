"""Peer evaluators (`handrank.peers`), each skipped when not installed: the same fixed-seed hands
as the handrank benchmarks, converted to the peer's card format before timing, one call per hand.
Peers are 10 to 100,000 times slower than a batch, so they evaluate at most PEER_HANDS hands."""
import importlib.util

import pytest

from handrank import peers

PEER_HANDS = 20_000
# pokerkit builds a Hand object for each of the 21 five-card subsets of a 7-card hand.
SLOW_PEER_HANDS = {"pokerkit": 1_000}


@pytest.mark.parametrize("k", [5, 7])
@pytest.mark.parametrize("peer", peers.PEERS, ids=lambda p: p.name)
@pytest.mark.benchmark(group="peers high")
def test_peer_high(benchmark, hands, n_hands, record, peer, k):
    evaluator = _load(peer)["high"]
    m = min(n_hands, SLOW_PEER_HANDS.get(peer.name, PEER_HANDS))
    prepared = evaluator.prepare(hands[k][:m])
    benchmark(evaluator.evaluate, prepared)
    record(m)


@pytest.mark.parametrize("peer", peers.PEERS, ids=lambda p: p.name)
@pytest.mark.benchmark(group="peers 2-7")
def test_peer_low27(benchmark, hands, n_hands, record, peer):
    evaluators = _load(peer)
    if "low27" not in evaluators:
        pytest.skip(f"{peer.name} has no 2-7 evaluator")
    m = min(n_hands, SLOW_PEER_HANDS.get(peer.name, PEER_HANDS))
    prepared = evaluators["low27"].prepare(hands[5][:m])
    benchmark(evaluators["low27"].evaluate, prepared)
    record(m)


def _load(peer):
    if importlib.util.find_spec(peer.module) is None:
        pytest.skip(f"{peer.name} is not installed (pip install 'handrank[bench]')")
    return peer.load()
