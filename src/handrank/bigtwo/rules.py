"""Big Two rulesets: the `Rules` dataclass, its validation and the named presets (RULES.md)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from handrank.bigtwo.classes import HK_STRAIGHTS, PLAIN_STRAIGHTS, Kind
from handrank.cards import RANKS, SUITS

__all__ = ["Kind", "Rules", "BIG_TWO_RANKS", "STRAIGHT_TABLES"]

# Ranks in Big Two order, lowest first; index = Big Two rank.
BIG_TWO_RANKS = "3456789TJQKA2"
# Ranks around the cycle in which a straight is a window of five (a window may wrap past the ace).
_CYCLE = RANKS
FOUR_OF_A_KIND_MODES = ("with_kicker", "four_cards", "both")
FLUSH_ORDERS = ("ranks", "suit", "highest_card")
OPENINGS = ("holding", "alone")
DIRECTIONS = ("clockwise", "anticlockwise")
SUIT_TIEBREAKS = ("all", "below_five", "none")
TWO_PAIR_SIZES = (4, 5)
FIVE_CARD_MATCHES = ("any", "same_kind", "top_card")
PASSINGS = ("jump_back", "out_of_trick", "ends_trick")
EXTRA_CARDS = ("lowest", "highest", "lowest_diamond", "discard", "remove_lowest", "trade")
LAST_PLAYS = ("any", "no_single_top_card", "no_top_card", "no_single_two", "no_single_or_pair_of_twos")
FOUR_TWOS = ("play", "win", "draw", "redeal")
SCORINGS = ("points", "finish_order", "teams")
PLAY_OUT_LEADS = ("next", "lowest_card")

# The straight orders RULES.md / the Big Two text list, by name: `Rules(straights="malaysia")`.
STRAIGHT_TABLES: dict[str, tuple[tuple[str, str], ...]] = {
    "hk": HK_STRAIGHTS,
    "malaysia": PLAIN_STRAIGHTS + (("A2345", "2"), ("23456", "2")),
    "indonesia": PLAIN_STRAIGHTS + (("JQKA2", "2"),),
    "vietnam": PLAIN_STRAIGHTS,
    "ace_low": (("23456", "6"),) + PLAIN_STRAIGHTS + (("A2345", "A"),),
    # the text's second ace-low order: ... < 9-T-J-Q-K < A-2-3-4-5 < T-J-Q-K-A
    "ace_low_broadway_top": (("23456", "6"),) + PLAIN_STRAIGHTS[:-1] + (("A2345", "A"), ("TJQKA", "A")),
    # traditional poker order (``poker_order``): the wheel lowest, the 2 low, broadway on top
    "poker": (("A2345", "5"), ("23456", "6")) + PLAIN_STRAIGHTS,
}


@dataclass(frozen=True)
class Rules:
    """A Big Two ruleset. Build one from a preset (``Rules.preset("taiwan")``), then adjust it with
    ``dataclasses.replace``; every field is checked when the object is built.

    - ``suit_order``: the four suits lowest first, as letters (``"dchs"``: diamonds < clubs < hearts
      < spades). The lowest card, which opens the game, is the three of ``suit_order[0]``.
    - ``straights``: the straights that exist, weakest first, each ``(ranks, tiebreak)``: five ranks
      as they run (``"A2345"``; a window of the cycle 2..A, wrapping allowed) and the rank whose suit
      breaks ties between equal straights; or the name of a table of ``STRAIGHT_TABLES``.
    - ``long_straights``: 6 to 12 cards of consecutive Big Two ranks (3 lowest, 2 highest, no
      wrap: the 2 only on top) are a play, suited or not, compared by the top card as singles are;
      a run beats only a run of the same length.
    - ``dragon``: the 13-card run 3..2 (one card of every rank) is a play, compared by the suit of
      its 2; only a higher dragon beats it. The seed's three-player variation, dealt 17 cards each:
      `Game` takes these rules only with ``players=3, deal="all"``.
    - ``flushes``: whether five suited cards that are no straight are a combo.
    - ``flush_order``: ``"ranks"`` (cards high to low, then the suit), ``"suit"`` (suit first) or
      ``"highest_card"`` (the highest card alone, rank then suit: the `charlesworth` preset).
    - ``straight_above_flush``: a straight beats a flush instead of losing to it.
    - ``four_of_a_kind``: ``"with_kicker"`` (played with any fifth card), ``"four_cards"`` (played
      alone, as a four-card combo) or ``"both"``.
    - ``two_pair``: two pairs plus a card is a five-card combo below the straight, compared by
      its higher pair (as pairs compare).
    - ``double_at`` / ``triple_at``: a loser holding at least this many cards pays double / triple
      (``double_multiplier`` / ``triple_multiplier`` times 1 per card: 2 and 3 by default).
    - ``whole_deck_double_at`` / ``whole_deck_triple_at``: the same thresholds when three players
      are dealt the whole deck (17 cards each): double with more than 11 cards, triple with 17.
    - ``unplayed_two_multiplier``: each 2 a loser still holds multiplies their payment by this (2:
      the seed's "double the count for each unused 2"; 1, the default: off).
    - ``scoring``: ``"points"`` (the losers pay per card, `payments`), ``"finish_order"`` (play
      goes on until one player is left; players are ranked by the order they went out) or
      ``"teams"`` (four players, partners opposite: the team holding fewer cards wins; a tie is
      settled by five-card shootouts). `bigtwo.Match` plays and scores the last two.
    - ``play_out_lead``: who leads when the players still holding cards play on for the places
      after the first: ``"next"`` (the player after the one who went out, with any play) or
      ``"lowest_card"`` (the holder of the lowest card left, with a play holding it).
    - ``winner_leads_next``: in a `bigtwo.Match`, the winner of a game leads the next one with any
      play, instead of the holder of the lowest card.
    - ``president_exchange``: in a `bigtwo.Match`, games are played out to a full finishing order
      and, from the second game, the first out (president) and the last (scum) swap 2 cards, the
      second and the second to last (vice-president, vice-scum) 1: the scum and vice-scum give
      their highest cards, the president and vice-president their lowest.
    - ``president_chooses``: the president gives any 2 cards, chosen after receiving the scum's.
    - ``double_held``: a loser's payment doubles once if they still hold a 2, four of a kind or a
      straight flush.
    - ``double_winning_play``: every payment doubles if the winner's last play held a 2, four of a
      kind or a straight flush.
    - ``suit_tiebreak``: where suits break ties between plays of equal rank: ``"all"``,
      ``"below_five"`` (a five-card play must beat by its ranks, not by a suit) or ``"none"`` (no
      suit ranking at all: an equal rank cannot beat). Flushes compared suit first need ``"all"``.
    - ``two_pair_size``: 5 (two pairs plus any card) or 4 (two pairs alone, a four-card play that
      four of a kind beats); only with ``two_pair``.
    - ``three_of_a_kind_hand``: a triple and two odd cards is a five-card combo below the straight
      (above two pair), compared by its triple.
    - ``sisters``: two pairs of consecutive ranks (Big Two order: A-A-2-2 are sisters, 2-2-3-3 are
      not) and any card is the weakest five-card combo, compared as its higher pair; instead of
      ``two_pair``.
    - ``bombs_beat_small``: four of a kind plus a card and a straight flush may also be played on a
      single or a pair, whatever its value.
    - ``four_beats_all``: a play holding four of a kind (five cards, or four where allowed) may be
      played on any play that lacks one.
    - ``five_card_match``: which five-card plays may follow one another: ``"any"`` (the kind
      order), ``"same_kind"`` (no poker rules: only a higher play of the same kind) or
      ``"top_card"`` (any five-card play whose top card is higher). Combo comparison (``a > b``)
      stays the key order; `beats` and the legal moves follow these three rules.
    - ``three_card_straights``: three cards of consecutive Big Two ranks (3-4-5 .. K-A-2, no
      wrap) are a play, compared by the top card as singles are; a run beats only a run, a triple
      only a triple.

    Play flow (docs/bigtwo.md, "Play flow"):

    - ``passing``: ``"jump_back"`` (a player who passed may play again in the same trick),
      ``"out_of_trick"`` (a player who passed sits out the rest of the trick) or ``"ends_trick"``
      (one pass ends the trick; the last player to play leads the next).
    - ``extra_card``: where the 52nd card of a three-player whole-deck deal goes: to the holder of
      the ``"lowest"`` card dealt (3♦ in hk), of the ``"highest"`` (2♠), of the
      ``"lowest_diamond"``; ``"discard"`` (to no one); ``"remove_lowest"`` (the lowest card is
      taken out before the deal instead, so that the 52nd card is never the 2♠); ``"trade"`` (the
      holder of the lowest card may swap it for the extra card: `Game.trade`).
    - ``draw_on_pass``: a player who passes draws the top card of the stock (the undealt cards:
      the two-player game dealt 13 cards each) while it lasts.
    - ``last_play``: which play may not empty a hand: ``"any"`` (no restriction),
      ``"no_single_top_card"`` (not the highest card, 2♠ in hk, alone), ``"no_top_card"`` (no play
      holding it), ``"no_single_two"`` (no 2 alone), ``"no_single_or_pair_of_twos"``. A player to
      lead who holds nothing but such a card passes the lead on.
    - ``four_twos``: a player dealt all four 2s: ``"play"`` (nothing happens), ``"win"`` (wins at
      once), ``"draw"`` (the game is drawn at once), ``"redeal"`` (the cards are dealt again).
    - ``dragun``: a 13-card hand of six pairs and a single (the Malta "dragun") wins at once; one
      holding a pair of 3s loses at once.

    The seeds' last rules (issue 28; docs/bigtwo.md maps each to its line):

    - ``opening``: the first play ``"holding"`` the lowest card (any combo with it), or that card
      ``"alone"`` as a single (the `charlesworth` preset).
    - ``direction``: play passes ``"clockwise"`` (to the next seat, ``turn + 1``) or
      ``"anticlockwise"`` (``turn - 1``), fixed for the game.
    - ``bare_triples``: a triple is a play on its own (True) or only inside a five-card hand.
    - ``three_threes_force``: after a lead of three 3s, the next player may not pass while
      holding three 2s and no other legal play.
    - ``dealt_bomb``: when any hand is dealt four of a kind, the 2s become the lowest rank for that
      game (`Game.play_rules` is then these rules with ``twos_low``).
    - ``twos_low``: the ranks run 2 < 3 < ... < A everywhere ranks are compared (2♦ the lowest
      card in hk, A♠ the highest); the straight table keeps its order.
    - ``smack_down``: on a single top card (2♠ in hk) a player may play four of a kind (four
      cards) or a run of 3 to 12 pairs of consecutive ranks below the 2 (`Kind.PAIR_RUN`, keyed
      by its top pair); then each player in turn may smack back with a higher four, or a higher
      run of as many pairs. These plays never lead and never follow anything else.
    - ``poker_order``: five-card hands rank as in poker (the 2 low in straights, flushes and four
      of a kind; A-2-3-4-5 the lowest straight, T-J-Q-K-A the highest: ``straights="poker"``),
      except that a full house of 2s is above one of aces; a five-card hand must win exactly
      (``suit_tiebreak`` "below_five" or "none").
    """

    suit_order: str = "dchs"
    straights: tuple[tuple[str, str], ...] = HK_STRAIGHTS
    # long runs (issue 20): plays of more than five cards
    long_straights: bool = False
    dragon: bool = False
    flushes: bool = True
    flush_order: str = "ranks"
    straight_above_flush: bool = False
    four_of_a_kind: str = "with_kicker"
    two_pair: bool = False
    double_at: int = 10
    triple_at: int = 13
    double_held: bool = False
    double_winning_play: bool = False
    double_multiplier: int = 2
    triple_multiplier: int = 3
    whole_deck_double_at: int = 12
    whole_deck_triple_at: int = 17
    # scoring and matches (docs/bigtwo.md maps each to its line of the seed; checked in _check_scoring)
    unplayed_two_multiplier: int = 1
    scoring: str = "points"
    play_out_lead: str = "next"
    winner_leads_next: bool = False
    president_exchange: bool = False
    president_chooses: bool = False
    # house rules on the plays and their order (docs/bigtwo.md maps each to its line of the seed)
    suit_tiebreak: str = "all"
    two_pair_size: int = 5
    three_of_a_kind_hand: bool = False
    sisters: bool = False
    bombs_beat_small: bool = False
    four_beats_all: bool = False
    five_card_match: str = "any"
    three_card_straights: bool = False
    # play flow: who plays when, the deal, the last play and instant results (docs/bigtwo.md)
    passing: str = "jump_back"
    extra_card: str = "lowest"
    draw_on_pass: bool = False
    last_play: str = "any"
    four_twos: str = "play"
    dragun: bool = False
    # the seeds' last rules (issue 28)
    opening: str = "holding"
    direction: str = "clockwise"
    bare_triples: bool = True
    three_threes_force: bool = False
    poker_order: bool = False
    dealt_bomb: bool = False
    twos_low: bool = False
    smack_down: bool = False

    def __post_init__(self) -> None:
        _check_suits(self.suit_order)
        object.__setattr__(self, "straights", _check_straights(self.straights))
        for name in ("long_straights", "dragon", "flushes", "straight_above_flush", "two_pair",
                     "double_held", "double_winning_play"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"Rules.{name} must be a bool, got {getattr(self, name)!r}")
        if self.flush_order not in FLUSH_ORDERS:
            raise ValueError(f"Rules.flush_order must be one of {FLUSH_ORDERS}, got {self.flush_order!r}")
        if self.four_of_a_kind not in FOUR_OF_A_KIND_MODES:
            raise ValueError(f"Rules.four_of_a_kind must be one of {FOUR_OF_A_KIND_MODES}, "
                             f"got {self.four_of_a_kind!r}")
        for name in ("double_at", "triple_at", "double_multiplier", "triple_multiplier",
                     "whole_deck_double_at", "whole_deck_triple_at"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"Rules.{name} must be an int >= 1, got {value!r}")
        for prefix in ("", "whole_deck_"):
            double_at, triple_at = getattr(self, prefix + "double_at"), getattr(self, prefix + "triple_at")
            if triple_at < double_at:
                raise ValueError(f"Rules.{prefix}triple_at ({triple_at}) must be >= "
                                 f"{prefix}double_at ({double_at})")
        self._check_play_variants()
        self._check_play_flow()
        self._check_scoring()
        self._check_last_rules()

    def _check_last_rules(self) -> None:
        for name in ("bare_triples", "three_threes_force", "poker_order", "dealt_bomb", "twos_low",
                     "smack_down"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"Rules.{name} must be a bool, got {getattr(self, name)!r}")
        for name, options in (("opening", OPENINGS), ("direction", DIRECTIONS)):
            if getattr(self, name) not in options:
                raise ValueError(f"Rules.{name} must be one of {options}, got {getattr(self, name)!r}")
        if self.poker_order and self.suit_tiebreak == "all":
            raise ValueError("Rules.poker_order: a five-card hand must win exactly, so it needs "
                             "suit_tiebreak 'below_five' or 'none'")
        if self.poker_order and self.straights != STRAIGHT_TABLES["poker"]:
            raise ValueError("Rules.poker_order ranks straights as poker does (A-2-3-4-5 lowest, "
                             "T-J-Q-K-A highest): it needs straights='poker'")
        if self.poker_order and self.flush_order != "ranks":
            raise ValueError("Rules.poker_order compares flushes card by card: it needs flush_order 'ranks'")
        if self.dealt_bomb or self.twos_low:
            for name in ("sisters", "three_card_straights", "long_straights", "dragon"):
                if getattr(self, name):
                    raise ValueError(f"Rules.{name} runs over Big Two's rank order, which the 2s low "
                                     "(dealt_bomb, twos_low) would change: set only one")
        if self.smack_down:
            for name, off in (("four_of_a_kind", "with_kicker"), ("two_pair_size", 5), ("long_straights", False),
                              ("dragon", False), ("dealt_bomb", False), ("twos_low", False),
                              ("four_beats_all", False)):
                if getattr(self, name) != off:
                    raise ValueError(f"Rules.smack_down plays four cards and runs of pairs only as "
                                     f"smacks: it needs {name}={off!r}")
        if self.three_threes_force and not self.bare_triples:
            raise ValueError("Rules.three_threes_force is about a lead of three 3s: it needs bare_triples=True")

    def _check_play_variants(self) -> None:
        if self.suit_tiebreak not in SUIT_TIEBREAKS:
            raise ValueError(f"Rules.suit_tiebreak must be one of {SUIT_TIEBREAKS}, "
                             f"got {self.suit_tiebreak!r}")
        if self.suit_tiebreak != "all" and self.flush_order == "suit":
            raise ValueError(f"Rules.suit_tiebreak {self.suit_tiebreak!r} leaves no suit to compare "
                             "flushes by: flush_order 'suit' needs suit_tiebreak 'all'")
        if type(self.two_pair_size) is not int or self.two_pair_size not in TWO_PAIR_SIZES:
            raise ValueError(f"Rules.two_pair_size must be 4 or 5, got {self.two_pair_size!r}")
        if self.two_pair_size == 4 and not self.two_pair:
            raise ValueError("Rules.two_pair_size 4 needs two_pair=True")
        for name in ("three_of_a_kind_hand", "sisters", "bombs_beat_small", "four_beats_all",
                     "three_card_straights"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"Rules.{name} must be a bool, got {getattr(self, name)!r}")
        if self.five_card_match not in FIVE_CARD_MATCHES:
            raise ValueError(f"Rules.five_card_match must be one of {FIVE_CARD_MATCHES}, "
                             f"got {self.five_card_match!r}")
        if self.sisters and self.two_pair:
            raise ValueError("Rules.sisters (two consecutive pairs) replaces two_pair: set only one")

    def _check_play_flow(self) -> None:
        for name in ("draw_on_pass", "dragun"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"Rules.{name} must be a bool, got {getattr(self, name)!r}")
        for name, options in (("passing", PASSINGS), ("extra_card", EXTRA_CARDS),
                              ("last_play", LAST_PLAYS), ("four_twos", FOUR_TWOS)):
            if getattr(self, name) not in options:
                raise ValueError(f"Rules.{name} must be one of {options}, got {getattr(self, name)!r}")

    def _check_scoring(self) -> None:
        value = self.unplayed_two_multiplier
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"Rules.unplayed_two_multiplier must be an int >= 1, got {value!r}")
        if self.scoring not in SCORINGS:
            raise ValueError(f"Rules.scoring must be one of {SCORINGS}, got {self.scoring!r}")
        if self.play_out_lead not in PLAY_OUT_LEADS:
            raise ValueError(f"Rules.play_out_lead must be one of {PLAY_OUT_LEADS}, got {self.play_out_lead!r}")
        for name in ("winner_leads_next", "president_exchange", "president_chooses"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"Rules.{name} must be a bool, got {getattr(self, name)!r}")
        if self.president_chooses and not self.president_exchange:
            raise ValueError("Rules.president_chooses needs president_exchange=True")

    # ------------------------------------------------------------------ presets
    @classmethod
    def preset(cls, name: str) -> Rules:
        """The named ruleset: one of ``Rules.presets()``."""
        try:
            return _BUILT[name]            # immutable, so one object per preset serves every caller
        except (KeyError, TypeError):
            pass
        try:
            overrides = _PRESETS[name]
        except (KeyError, TypeError):
            if isinstance(name, str) and name in _REMOVED:
                raise ValueError(_REMOVED[name]) from None
            raise ValueError(f"unknown Big Two preset {name!r}; presets: {', '.join(_PRESETS)}") from None
        return _BUILT.setdefault(name, cls(**overrides))

    @staticmethod
    def presets() -> tuple[str, ...]:
        """The preset names, the default (``hk``) first."""
        return tuple(_PRESETS)

    # ------------------------------------------------------------------ derived facts
    @property
    def lowest_card(self) -> int:
        """The card id of the lowest card (3♦ in hk), which must open the game."""
        return 4 * RANKS.index("2" if self.twos_low else "3") + SUITS.index(self.suit_order[0])

    @property
    def highest_card(self) -> int:
        """The card id of the highest card (2♠ in hk), which the last-card rules name."""
        return 4 * RANKS.index("A" if self.twos_low else "2") + SUITS.index(self.suit_order[3])

    @property
    def five_card_kinds(self) -> tuple[Kind, ...]:
        """The five-card kinds this ruleset allows, weakest first."""
        kinds = [Kind.SISTERS] if self.sisters else []
        kinds += [Kind.TWO_PAIR] if self.two_pair and self.two_pair_size == 5 else []
        kinds += [Kind.THREE_OF_A_KIND] if self.three_of_a_kind_hand else []
        middle = [Kind.STRAIGHT, Kind.FLUSH] if self.flushes else [Kind.STRAIGHT]
        if self.straight_above_flush:
            middle.reverse()
        kinds += middle + [Kind.FULL_HOUSE]
        if self.four_of_a_kind != "four_cards":
            kinds.append(Kind.FOUR_OF_A_KIND)
        return tuple(kinds + [Kind.STRAIGHT_FLUSH])

    @property
    def sizes(self) -> tuple[int, ...]:
        """The numbers of cards a play may have."""
        four = self.four_cards_alone or self.two_pair_size == 4 or self.smack_down
        three = self.bare_triples or self.three_card_straights
        return (1, 2) + (3,) * three + (4,) * four + (5,) + self.run_sizes + self.pair_run_sizes

    @property
    def pair_run_sizes(self) -> tuple[int, ...]:
        """The numbers of cards a run of pairs (a smack-down) may have: 6, 8 .. 24."""
        return tuple(range(6, 25, 2)) * self.smack_down

    @property
    def run_sizes(self) -> tuple[int, ...]:
        """The numbers of cards (above five) a long run may have: 6..12 (``long_straights``), 13
        (``dragon``)."""
        return tuple(range(6, 13)) * self.long_straights + (13,) * self.dragon

    @property
    def four_cards_alone(self) -> bool:
        """Whether four of a kind may be played as four cards."""
        return self.four_of_a_kind != "with_kicker"

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed (and checked)."""
        return replace(self, **changes)

    def __getstate__(self) -> dict[str, Any]:
        # the compiled tables cached on the object are rebuilt on use, never pickled or copied
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}


def _check_suits(order: Any) -> None:
    if not isinstance(order, str) or sorted(order.lower()) != sorted(SUITS) or order != order.lower():
        raise ValueError(f"Rules.suit_order must name each suit of {SUITS!r} once, lowest first "
                         f"(e.g. 'dchs'), got {order!r}")


def _check_straights(table: Any) -> tuple[tuple[str, str], ...]:
    if isinstance(table, str):
        try:
            return STRAIGHT_TABLES[table]
        except KeyError:
            raise ValueError(f"Rules.straights: unknown straight table {table!r}; tables: "
                             f"{', '.join(STRAIGHT_TABLES)}") from None
    try:
        entries = [tuple(entry) for entry in table]
    except TypeError:
        raise ValueError(f"Rules.straights must be a sequence of (ranks, tiebreak) pairs, got {table!r}") from None
    seen: dict[frozenset[str], str] = {}
    checked = []
    for i, entry in enumerate(entries):
        if len(entry) != 2 or not all(isinstance(x, str) for x in entry):
            raise ValueError(f"straight {i}: expected a (ranks, tiebreak) pair of strings, got {entry!r}")
        ranks, tiebreak = entry[0].upper(), entry[1].upper()
        if len(ranks) != 5 or any(r not in _CYCLE for r in ranks):
            raise ValueError(f"straight {i}: {entry[0]!r} must be five ranks from {_CYCLE}")
        start = _CYCLE.index(ranks[0])
        if ranks != "".join(_CYCLE[(start + j) % 13] for j in range(5)):
            raise ValueError(f"straight {i}: {entry[0]!r} is not five consecutive ranks")
        if len(tiebreak) != 1 or tiebreak not in ranks:
            raise ValueError(f"straight {i}: the tie-break must be one rank of {entry[0]!r}, "
                             f"got {entry[1]!r}")
        rank_set = frozenset(ranks)
        if rank_set in seen:
            raise ValueError(f"straight {i}: {entry[0]!r} repeats straight {seen[rank_set]!r}")
        seen[rank_set] = ranks
        checked.append((ranks, tiebreak))
    return tuple(checked)


_BUILT: dict[str, Rules] = {}
_PRESETS: dict[str, dict[str, Any]] = {
    "hk": {},
    "taiwan": {"suit_order": "cdhs"},
    "pusoy": {"suit_order": "cshd"},
    "malaysia": {"straights": "malaysia"},
    "indonesia": {"straights": "indonesia"},
    "vietnam": {"straights": "vietnam"},
    "hawaii": {"suit_order": "cshd", "scoring": "finish_order", "play_out_lead": "lowest_card"},
    # henrycharlesworth/big2_PPOalgorithm (RULES.md): its rules.md and gameLogic.py, exactly
    "charlesworth": {"straights": "indonesia", "flush_order": "highest_card", "two_pair": True,
                     "two_pair_size": 4, "four_of_a_kind": "four_cards", "opening": "alone",
                     "double_multiplier": 1, "triple_multiplier": 1},
}
# Names no longer presets, and why: a user of the old name learns what to use instead.
_REMOVED = {
    "ace_low": "the Big Two preset 'ace_low' is gone: presets are rule sets named for where they are "
               "played, and no place is given for this straight order; use Rules(straights='ace_low')",
}
