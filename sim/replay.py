"""Readable transcripts of single hands, produced by the same kernels from their event log.

A *deal file* fixes a hand so anyone can check a rule by hand::

    dealer = 1                 # optional; default: the last seat, so seat 0 plays first
    players = 2                # optional; must match --players when given
    variant = "rummy_basic"    # optional; must match the replayed variant when given
    upcard = "7h"
    stock = "Kd 2c 9s"         # top first; unlisted shoe cards go below, in a fixed order
    [hands]
    0 = "As 2s 3s 4s 7h 7d 7c Kd Qd 9c"
    1 = "..."
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.cards import (
    JOKER,
    N_KINDS,
    N_NATURAL,
    N_RANKS,
    N_SUITS,
    card_name,
    cards_text,
    parse_cards,
    rank_of,
)
from sim.engine import layout as L
from sim.engine import rows as R
from sim.engine import state as S
from sim.engine.api import compile_rules, play
from sim.engine.deal import extra_card, step_seat
from sim.engine.melds import MAX_RUN, pack_kinds
from sim.engine.patterns import DEUCE_RANK
from sim.engine.specs import GENERIC
from sim.rules import ConfigError
from sim.rules.errors import show
from sim.rules.model import Rules


@dataclass(frozen=True)
class Deal:
    """A hand-built deal: each seat's cards, the upcard, the stock from the top, the dealer."""

    hands: tuple[tuple[int, ...], ...]
    upcard: int | None
    stock: tuple[int, ...]
    dealer: int
    source: str = "<deal>"


def load_deal(path: str | Path, players: int, variants: tuple[str, ...] = ()) -> Deal:
    """Read a deal file (see the module docstring); ConfigError names the file and key.

    The file's optional ``players`` and ``variant`` say what the deal was built for: they
    must agree with the replay's table (``players``) and variant (any of ``variants``, the
    names it was given by; not checked when empty), or the deal is refused."""
    source = str(path)
    try:
        data = tomllib.loads(Path(path).read_text())
    except OSError as err:
        raise _bad(source, None, None, f"a readable deal file ({err.strerror})") from None
    except tomllib.TOMLDecodeError as err:
        raise _bad(source, None, None, f"valid TOML ({err})") from None
    known = {"hands", "upcard", "stock", "dealer", "variant", "players"}
    for key in data:
        if key not in known:
            raise _bad(source, key, data[key], ", ".join(sorted(known)))
    if "players" in data and data["players"] != players:
        raise _bad(source, "players", data["players"], f"{players}, the replay's player count")
    if variants and "variant" in data and data["variant"] not in variants:
        raise _bad(source, "variant", data["variant"], f"{variants[0]}, the replayed variant")
    table = data.get("hands")
    if not isinstance(table, dict):
        raise _bad(source, "hands", table, 'a table of seat = "cards"')
    hands = []
    for seat in range(players):
        text = table.get(str(seat))
        if not isinstance(text, str):
            raise _bad(source, f"hands.{seat}", text, f"the cards of seat {seat}")
        hands.append(tuple(_cards(source, f"hands.{seat}", text)))
    extra = set(table) - {str(s) for s in range(players)}
    if extra:
        raise _bad(source, "hands", sorted(extra), f"seats 0..{players - 1}")
    upcard = data.get("upcard")
    up = None
    if upcard is not None:
        cards = _cards(source, "upcard", upcard)
        if len(cards) != 1:
            raise _bad(source, "upcard", upcard, "one card")
        up = cards[0]
    stock = tuple(_cards(source, "stock", data.get("stock", "")))
    dealer = data.get("dealer", players - 1)
    if not isinstance(dealer, int) or not 0 <= dealer < players:
        raise _bad(source, "dealer", dealer, f"a seat 0..{players - 1}")
    return Deal(tuple(hands), up, stock, dealer, source)


def _bad(source: str, key: str | None, value: object, allowed: str) -> ConfigError:
    problem = "cannot be read" if key is None else f"{show(value)} is not valid"
    return ConfigError(problem, file=source, key=key, value=value, allowed=allowed)


def _cards(source: str, key: str, text: object) -> list[int]:
    if not isinstance(text, str):
        raise _bad(source, key, text, 'a string of cards such as "As Td 9h Jk"')
    try:
        return parse_cards(text)
    except ValueError as err:
        raise _bad(source, key, text, str(err)) from None


def preset_stock(deal: Deal, params: np.ndarray) -> np.ndarray:
    """The shoe in the order the kernel pops it (top card last) so that dealing reproduces
    ``deal``: cards go one at a time in the direction of play from the dealer's next seat
    (clockwise: his left), then the upcard, then the stock from its top. Shoe cards the file
    does not place go to the bottom."""
    players = int(params[L.P_PLAYERS])
    size = int(params[L.P_HAND_SIZE])
    source = deal.source
    # gin's 11/10 opening and Phỏm's 10th card: the first player gets one card more, dealt
    # last (RULES.md §3.17, §3.13); the engine's own answer
    eleven = bool(extra_card(GENERIC, params))
    # 3-player gin: the dealer sits out and is dealt nothing (RULES.md §3.18)
    out = deal.dealer if int(params[L.P_DEALER_ROTATION]) == L.DEALER_LOSER_SITS_OUT else -1
    # the deal goes in the direction of play from the dealer's next seat (§2K.46): the
    # engine's own order of seats
    ring = [int(step_seat(GENERIC, params, np.int64(deal.dealer)))]
    while len(ring) < players:
        ring.append(int(step_seat(GENERIC, params, np.int64(ring[-1]))))
    opener = ring[0]
    for seat, cards in enumerate(deal.hands):
        want = 0 if seat == out else size + (1 if eleven and seat == opener else 0)
        if len(cards) != want:
            raise _bad(source, f"hands.{seat}", cards_text(cards), f"{want} cards")
    shoe = np.zeros(N_KINDS, np.int64)
    kinds = int(pack_kinds(GENERIC, params))  # 52 kinds, or 40 under strip_8_9_10 (§2A.7)
    shoe[:N_NATURAL] = [params[L.P_PACKS] * ((kinds >> k) & 1) for k in range(N_NATURAL)]
    shoe[N_KINDS - 1] = params[L.P_JOKERS]
    order = []
    for i in range(size):
        for seat in ring:
            if seat != out:
                order.append(deal.hands[seat][i])
    if eleven:
        order.append(deal.hands[opener][size])
    if params[L.P_UPCARD] == 1 and not eleven:
        if deal.upcard is None:
            raise _bad(source, "upcard", None, "the upcard (this variant turns one)")
        order.append(deal.upcard)
    order.extend(deal.stock)
    left = shoe.copy()
    for kind in order:
        left[kind] -= 1
        if left[kind] < 0:
            raise _bad(
                source, "hands/upcard/stock", card_name(kind), "at most as many copies as the shoe"
            )
    for kind in range(N_KINDS):
        order.extend([kind] * int(left[kind]))
    return np.array(order[::-1], np.int64)


# ---- transcript --------------------------------------------------------------------------


def transcript(
    rules: Rules,
    players: int,
    bots: list[int],
    seed: int = 0,
    deal: Deal | None = None,
    hand: int = 0,
) -> str:
    """Play one hand (deal number ``hand`` of ``seed``, or ``deal``) and describe it."""
    if deal is not None and rules.in_partnerships(players):
        raise ConfigError(
            "a hand-built deal of partnership gin (two tables, RULES.md §3.19) is not supported",
            key="players",
            value=players,
            allowed="a replay by seed (no --deal) at 4 players, or 2 or 3 players with --deal",
        )
    params, values = compile_rules(rules, players, audit=True)
    preset = preset_stock(deal, params) if deal is not None else None
    out = play(
        params,
        values,
        np.array(bots, np.int64),
        seed=seed,
        first_deal=hand,
        hands=1,
        events=20_000,
        preset=preset,
        dealer=deal.dealer if deal is not None else -1,
    )
    names = [R.BOT_NAMES[b] for b in bots]
    lines = [f"{rules.name}, {players} players, seed {seed}, deal {hand}"]
    held = "unmelded point(s)" if rules.scoring == "unmelded_to_winner" else "point(s)"
    opening = int(rules.values["initial_meld_min"])
    unit = "chips" if rules.chips else "hand score"  # a chip game's scores (§3.22)
    if rules.family == "conquian":  # §3.21: cards are counted, hands won in tentos
        held, unit = "card(s)", "tentos"
    knocked = "point(s)" if rules.family == "carousel" else "deadwood"  # §3.16: points in hand
    lines += _describe(out.events, names, held, opening, unit, knocked)
    violations = int(out.counters[R.C_VIOLATIONS])
    lines.append(f"audit: {violations} violation(s)")
    return "\n".join(lines)


def _describe(
    events: np.ndarray,
    names: list[str],
    held: str = "point(s)",
    opening: int = 0,
    unit: str = "hand score",
    knocked: str = "deadwood",
) -> list[str]:
    """One line or two per event of the log (``sim.engine.state`` says what each holds);
    ``held`` names what a seat's count at the end is (Boat House, §3.7: his unmelded
    points); under an initial-meld threshold ``opening`` (§2D.24) the melds of the turn a
    seat first lays down are marked as his initial meld; ``unit`` names a seat's score of the
    hand ("chips" in a chip game); ``knocked`` names what a knocker's count is (Carousel,
    §3.16: the points in his hand)."""
    lines: list[str] = []
    turn = 0
    opened: set[int] = set()  # seats that laid down a meld this hand
    opening_turn = -1  # the turn of the initial meld being laid down
    drawn = False  # the turn shown last has drawn and not yet discarded (a drop, §3.22)
    last = -1  # the previous event's type
    for row in events:
        etype, seat, a, b = (int(x) for x in row[: S.EV_N])
        previous, last = last, etype
        if etype == S.E_DEAL and seat == 0:
            opened.clear()
        cards = [int(k) for k in row[S.EV_CARDS : S.EV_CARDS + int(row[S.EV_N])]]
        who = f"seat {seat} ({names[seat]})" if 0 <= seat < len(names) else ""
        if turn == 0 and etype in (S.E_MELD, S.E_DISCARD):
            turn = 1  # an opening without a draw (gin's 11/10, Phỏm's 10th card)
            lines.append(f"turn {turn}: {who}")
        if etype == S.E_TABLE:  # 4-player gin: the next table's events follow
            lines.append(
                f"table {a + 1}: seat {seat} ({names[seat]}) against seat {b} ({names[b]})"
            )
            turn = 0
        elif etype == S.E_TEAMS:
            lines.append(f"teams: seats 0 and 2 score {a:+d}, seats 1 and 3 score {b:+d}")
        elif etype == S.E_DEAL:
            lines.append(f"  {who} is dealt {cards_text(sorted(cards))}")
        elif etype == S.E_UPCARD:
            lines.append(f"upcard {card_name(a)}")
        elif etype in (S.E_DRAW_STOCK, S.E_DRAW_DISCARD):
            if b != 1:  # b = 1: top_plus_one's second card of the same turn (§3.7)
                turn += 1
                lines.append(f"turn {turn}: {who}")
            pile = "the stock" if etype == S.E_DRAW_STOCK else "the discard pile"
            verb = "draws" if etype == S.E_DRAW_STOCK else "takes"
            also = "also " if b == 1 else ""
            lines.append(f"  {also}{verb} {card_name(a)} from {pile}")
        elif etype == S.E_DECLINE_UPCARD:
            turn += 1
            lines.append(f"turn {turn}: {who}")
            lines.append(f"  lets the upcard {card_name(a)} go")
        elif etype == S.E_REBUILD:  # logged before the draw of the turn it opens (§1.8)
            lines.append(
                f"stock empty: the discard pile becomes the stock ({a} cards); "
                f"new upcard {card_name(b) if b >= 0 else '(none)'}"
            )
        elif etype == S.E_MELD:
            mark = ""
            if opening and (seat not in opened or opening_turn == turn):
                opened.add(seat)
                opening_turn = turn
                mark = f" (initial meld, at least {opening} together)"
            lines.append(f"  melds #{a}: {meld_text(cards, b)}{mark}")
        elif etype == S.E_LAYOFF:
            lines.append(f"  lays off {card_name(b)} on #{a}")
        elif etype == S.E_SLIDE:  # §2B.13
            lines.append(
                f"  lays off {card_name(b)} on #{a} in its end joker's place; "
                "the joker slides to the other end"
            )
        elif etype == S.E_BORROW:  # §2D.22: the new meld that holds it follows
            lines.append(f"  borrows {card_name(b)} from #{a}")
        elif etype == S.E_BLOCK:
            turn += 1
            lines.append(f"turn {turn}: {who}")
            lines.append(f"  declines {card_name(a)} with the stock empty: the hand is blocked")
        elif etype == S.E_DECLARE:
            lines.append(f"  declares a joker in #{a} as {card_name(b)}")
        elif etype == S.E_STEAL:
            lines.append(f"  puts {card_name(b)} in place of the joker in #{a} and takes the joker")
        elif etype == S.E_CALL:  # out of turn (§3.2): his lay-off and discard follow
            lines.append(f"call: {who} calls {card_name(a)}, discarded by seat {b}")
        elif etype == S.E_DISCARD:
            lines.append(f"  discards {card_name(a)}")
        elif etype == S.E_TONK:  # §3.22: shown at the deal
            tied = "; tied at the best: the cards are redealt" if b else ""
            lines.append(f"  {who} shows a tonk of {a} points{tied}")
        elif etype == S.E_DROP:  # §3.22: at his turn's start, or after his table play
            if not drawn:
                turn += 1
                lines.append(f"turn {turn}: {who}")
            lines.append(f"  drops, laying down his hand of {a} point(s)")
        elif etype == S.E_FORCE:  # §3.21: the forced player's turn begins with it
            turn += 1
            lines.append(f"turn {turn}: seat {b} ({names[b]})")
            lines.append(f"  seat {seat} ({names[seat]}) forces him to use {card_name(a)}")
        elif etype == S.E_USE:  # the card on offer (b = 1) or the stock card turned up
            if b == 1 and previous != S.E_FORCE:
                turn += 1
                lines.append(f"turn {turn}: {who}")
            lines.append(f"  uses {card_name(a)}" + (" from the discard pile" if b else ""))
        elif etype == S.E_REJECT:
            turn += 1
            lines.append(f"turn {turn}: {who}")
            lines.append(f"  turns down {card_name(a)}: out of play")
        elif etype == S.E_EXPOSE:
            if previous != S.E_REJECT:
                turn += 1
                lines.append(f"turn {turn}: {who}")
            lines.append(f"  turns up {card_name(a)} from the stock")
        elif etype == S.E_PASS:
            lines.append(f"  passes {card_name(a)} face up onto the discard pile")
        elif etype == S.E_REFORM:  # his E_MELDs follow
            lines.append(
                f"  takes up {a} of his meld(s), {cards_text(meld_order(cards))}, to form "
                "them again"
            )
        elif etype == S.E_REARRANGE:  # §3.16: the new table's E_MELDs follow, from #0
            played = cards_text(sorted(cards))
            lines.append(
                f"  takes up the table's {a} meld(s) and forms the table again with {b} hand "
                f"card(s), {played}:"
            )
        elif etype == S.E_FINAL:  # §3.16: the stock ran out, one more turn each
            turn += 1
            lines.append(f"turn {turn}: {who} (final turn; {a} left, his included)")
        elif etype == S.E_KNOCK:
            lines.append(f"  knocks with {a} {knocked}" if a else "  goes gin")
        elif etype == S.E_SHOW:
            laid = f", laying off {cards_text(sorted(cards))}" if cards else ""
            lines.append(f"  {who} shows {a} deadwood{laid}")
        elif etype == S.E_END:
            lines.append(_ending(R.REASON_NAMES[a], who, turn))
        elif etype == S.E_SCORE:
            lines.append(f"  {who} holds {b} {held}; {unit} {a:+d}")
        else:
            raise ValueError(f"event type {etype} has no description (sim/replay.py)")
        if etype in (S.E_DRAW_STOCK, S.E_DRAW_DISCARD):
            drawn = True
        elif etype in (S.E_DISCARD, S.E_DECLINE_UPCARD):
            drawn = False
    return lines


def meld_text(cards: list[int], wild: int = 0) -> str:
    """A meld's cards as ``meld_order`` lays them out; the 2s standing in it as wild cards
    (``wild``: its ``E_MELD``'s b, as ``state.M_WILD``; deuces_wild, §2B.14) set apart after
    the jokers, each marked "(wild)"."""
    digits = [(wild >> (3 * q)) % 8 for q in range(MAX_RUN)]
    twos = [DEUCE_RANK * N_SUITS + d - 1 for d in digits if d]
    rest = list(cards)
    for k in twos:
        rest.remove(k)
    shown = cards_text(meld_order(rest))
    return " ".join([shown, *(f"{card_name(k)}(wild)" for k in sorted(twos))])


def meld_order(cards: list[int]) -> list[int]:
    """A meld's cards as a player would lay them out: a run in the order of its positions
    (Q K A with the ace high, K A 2 around the corner: the rotation of the ranks that spans
    the fewest positions), a group by suit; jokers last, as the log lists them."""
    naturals = [k for k in cards if k != JOKER]
    jokers = [k for k in cards if k == JOKER]
    ranks = {rank_of(k) for k in naturals}
    if len(ranks) < 2:
        return sorted(naturals) + jokers
    start = min(ranks, key=lambda s: (max((r - s) % N_RANKS for r in ranks), s))
    return sorted(naturals, key=lambda k: ((rank_of(k) - start) % N_RANKS, k)) + jokers


def _ending(reason: str, who: str, turns: int) -> str:
    """The line that says how the hand ended."""
    if reason in ("went_out", "went_rummy"):
        verb = "went out" if reason == "went_out" else "went rummy"
        return f"end: {who} {verb} after {turns} turns"
    if reason in ("knock", "gin", "undercut"):
        return f"end: {reason} after {turns} turns; hand won by {who or 'tied players'}"
    if reason == "void":
        return f"end: void after {turns} turns (two stock cards left); same dealer again"
    if reason == "block":
        return f"end: blocked after {turns} turns; lowest hand: {who or 'nobody alone (tied)'}"
    if reason == "tonk":
        return f"end: instant tonk at the deal; {who} collects"
    if reason in ("drop", "caught", "stock_out"):
        what = {"drop": "the dropper was lowest", "caught": "the drop was caught"}
        what["stock_out"] = "the stock ran out"
        return f"end: {what[reason]} after {turns} turns; lowest hand: {who or 'shared'}"
    if reason == "redeal":
        return f"end: redeal after {turns} turns (no chips); same dealer again"
    if reason == "went_u":
        return f"end: {who} went Ù (whole hand melded) after {turns} turns"
    if reason == "showdown":
        return f"end: showdown after four turns each; lowest garbage: {who}"
    return f"end: {reason} after {turns} turns (no score)"
