"""Slow, plain reference for Carousel's table re-partition (RULES.md §3.16, §2D.23
``rearrange = table``; the engine's ``sim.engine.repartition.best_table_meld``), and a
plain-Python Carousel self-play that yields the positions it is checked on.

The oracle imports nothing from the engines. It lists every meld of the pool (table and
hand cards) with ``arrangement.all_melds`` and tries, exhaustively (memoised on what is left,
no bound), every way to decide the pool's cards from the lowest natural kind up: each copy
goes into a meld or, only when it is a hand copy, stays in hand. Every table card must be
melded again, and at least one hand card played. Declared table jokers are read as
``repartition.py``'s docstring states (seed 001's ``reuse_same_turn``): each is kept (one
more copy of its declared card that must be melded) or freed (a wild joker that must be
melded, with as many natural copies of its card melded as jokers declared as it were freed,
beyond the kept ones). The answer is the most hand value one action can play (0: none,
``best_gain``) and, independently of the engine, *which* re-partition the engine's declared
tie-break picks among those that play as much (``best_repartition``; the order is declared in
``sim.engine.repartition``'s docstring): the joker choices are tried with the freed mask
counting up, a later one taken only when it plays more; in one choice the options of the
lowest undecided copy come in the declared order (its melds from the largest
``arrangement`` key down, then left in hand) and, from the memoised best of every state,
the first option that still reaches the most is taken, state after state: the first
decision sequence, in that order, among those that meld the most. ``ties`` also counts the
distinct re-partitions (melds as a multiset, the freed jokers' cards) that play as much.

``python -m tests.oracles.repartition --positions 20000`` checks the engine on that many
positions from self-play (at most 20 table cards) and prints the agreement counts (the
gain; and where both play the same and the engine's call was neither capped nor cut short,
whether it chose the declared re-partition: the same melds in the same order, the same
freed jokers, and how many such positions were tied) and the engine's cost per call.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass
from functools import cache

from sim.cards import JOKER, N_NATURAL, N_RANKS, N_SUITS
from tests.oracles.arrangement import Meld, Rules, all_melds, positions, tried

CAROUSEL = Rules(ace_rank="high_or_low")  # §3.16: runs of one suit, ace high or low, no K-A-2


def carousel_values() -> list[int]:
    """§3.16 card values: joker 25, J/Q/K 10, 2-10 their pips, ace 1."""
    values = [0] * (N_NATURAL + 1)
    for k in range(N_NATURAL):
        rank = k // N_SUITS
        values[k] = 1 if rank == 0 else min(rank + 1, 10)
    values[JOKER] = 25
    return values


class TooLarge(Exception):
    """The brute force met more than its ``budget`` of positions (``best_gain``)."""


@dataclass(frozen=True)
class Repartition:
    """A re-partition: the hand value it plays, its melds in the order they are decided
    (a kept table joker standing in them as a natural copy of its card) and the freed
    table jokers (bit ``j``: table joker ``j``)."""

    gain: int
    melds: tuple[Meld, ...]
    freed: int


class _Choice:
    """One kept/freed choice of the table's jokers: the pool (``pool``, ``jokers``) whose
    cards of ``need`` and ``need_jokers`` jokers must all be melded, searched exhaustively
    (memoised on what is left, no bound). A state is (undecided copies, table copies still
    to meld, undecided jokers, jokers still to meld), its copies as sorted (kind, count)
    pairs."""

    def __init__(self, pool: Counter, need: Counter, jokers, need_jokers, values, rules, budget):
        self.values = values
        self.budget = budget
        self.visited = 0
        self.by_card: dict[int, list[Meld]] = {}
        for m in all_melds(sorted(pool.elements()) + [JOKER] * jokers, rules):
            self.by_card.setdefault(m.naturals[0], []).append(m)  # its lowest card decides it
        for melds in self.by_card.values():
            melds.sort(key=lambda m: tried(m.key))  # the declared order: largest key first
        self.root = (
            tuple(sorted(pool.items())),
            tuple(sorted((k, n) for k, n in need.items() if n > 0)),
            jokers,
            need_jokers,
        )
        self.best = cache(self._best)
        self._distinct: dict = {}

    def options(self, state):
        """The lowest undecided copy's options in the declared order: into each meld
        through it (``tried`` order), then left in hand (a hand copy only): (value melded,
        the meld or None, the state after)."""
        pool_t, need_t, jokers, need_jokers = state
        left = dict(pool_t)
        c = min(left)
        needed = dict(need_t)
        for m in self.by_card.get(c, ()):
            if m.jokers > jokers:
                continue
            take = Counter(m.naturals)
            if any(left.get(k, 0) < n for k, n in take.items()):
                continue
            rest = dict(left)
            still = dict(needed)
            for k, n in take.items():
                rest[k] -= n
                if rest[k] == 0:
                    del rest[k]
                if k in still:
                    still[k] = max(0, still[k] - n)
                    if still[k] == 0:
                        del still[k]
            value = sum(self.values[k] for k in m.naturals) + m.jokers * self.values[JOKER]
            after = (
                tuple(sorted(rest.items())),
                tuple(sorted(still.items())),
                jokers - m.jokers,
                max(0, need_jokers - m.jokers),
            )
            yield value, m, after
        if left[c] > needed.get(c, 0):  # a hand copy of c stays in hand
            rest = dict(left)
            rest[c] -= 1
            if rest[c] == 0:
                del rest[c]
            yield 0, None, (tuple(sorted(rest.items())), need_t, jokers, need_jokers)

    def _best(self, state):
        """The most value the undecided cards can meld (every needed card melded), or None."""
        self.visited += 1
        if self.budget is not None and self.visited > self.budget:
            raise TooLarge
        if not state[0]:
            return 0 if state[3] == 0 else None
        top = None
        for value, _, after in self.options(state):
            below = self.best(after)
            if below is not None and (top is None or value + below > top):
                top = value + below
        return top

    def first(self) -> tuple[Meld, ...]:
        """The melds of the first decision sequence, in the declared order, that melds the
        most (``best(root)`` must not be None)."""
        state = self.root
        melds = []
        while state[0]:
            top = self.best(state)
            for value, meld, after in self.options(state):
                below = self.best(after)
                if below is not None and value + below == top:
                    if meld is not None:
                        melds.append(meld)
                    state = after
                    break
        return tuple(melds)

    def reaching(self, target: int) -> tuple[Meld, ...] | None:
        """The melds of the first decision sequence in the declared order that melds at
        least ``target`` (every needed card melded), or None: a depth-first walk of the same
        options, cut where the undecided cards' whole value cannot reach what is still
        wanted, remembering for each state the least value it failed to reach. When no
        sequence melds more than ``target``, this is ``first()`` without the whole
        memoised search. Its own ``budget`` of states (``TooLarge`` beyond it)."""
        failed: dict = {}
        walked = [0]

        def walk(state, wanted):
            pool_t, _, jokers, need_jokers = state
            if not pool_t:
                return [] if need_jokers == 0 and wanted <= 0 else None
            if failed.get(state, wanted + 1) <= wanted:
                return None
            walked[0] += 1
            if self.budget is not None and walked[0] > self.budget:
                raise TooLarge
            whole = sum(self.values[k] * n for k, n in pool_t) + jokers * self.values[JOKER]
            if whole >= wanted:
                for value, meld, after in self.options(state):
                    melds = walk(after, wanted - value)
                    if melds is not None:
                        if meld is not None:
                            melds.append(meld)
                        return melds
            failed[state] = min(failed.get(state, wanted), wanted)
            return None

        melds = walk(self.root, target)
        return None if melds is None else tuple(reversed(melds))

    def distinct(self, state, cap: int) -> frozenset:
        """The distinct melds (as sorted (key, naturals) pairs) of the completions from
        ``state`` that meld the most, up to ``cap`` of them (exact below ``cap``: a union
        of capped sets holds ``cap`` when one of them does)."""
        memo = self._distinct.setdefault(cap, {})
        if state in memo:
            return memo[state]
        if not state[0]:
            memo[state] = frozenset([()])
            return memo[state]
        top = self.best(state)
        out: set = set()
        for value, m, after in self.options(state):
            below = self.best(after)
            if below is None or value + below != top:
                continue
            for rest in self.distinct(after, cap):
                out.add(rest if m is None else tuple(sorted(rest + ((m.key, m.naturals),))))
                if len(out) >= cap:
                    break
            if len(out) >= cap:
                break
        memo[state] = frozenset(out)
        return memo[state]


def _choices(hand, table, declared, values, rules, budget):
    """Each kept/freed choice of the table's jokers in the declared order (the freed mask
    counting up: all kept first), with the value its table part melds (``floor``): (freed
    mask, floor, ``_Choice``), skipping the choices whose freed jokers' cards are nowhere."""
    table_n = Counter(table)
    hand_n = Counter(k for k in hand if k != JOKER)
    hand_j = sum(1 for k in hand if k == JOKER)
    for freed in range(1 << len(declared)):
        kept = Counter(d for j, d in enumerate(declared) if not (freed >> j) & 1)
        out = Counter(d for j, d in enumerate(declared) if (freed >> j) & 1)
        need = table_n + kept
        for d, n in out.items():
            need[d] = kept[d] + max(table_n[d], n)
        pool = table_n + kept + hand_n
        if any(need[k] > pool[k] for k in need):
            continue
        n_out = sum(out.values())
        floor = sum(values[k] * n for k, n in (table_n + kept).items()) + n_out * values[JOKER]
        yield freed, floor, _Choice(pool, need, hand_j + n_out, n_out, values, rules, budget)


def best_repartition(
    hand,
    table,
    declared,
    values=None,
    rules: Rules = CAROUSEL,
    budget: int | None = None,
    better_than: int = 0,
    ties: int = 0,
    most: int | None = None,
):
    """The re-partition the declared order picks (``sim.engine.repartition``'s docstring):
    of those playing the most hand value, more than ``better_than``, the first kept/freed
    choice of the table's jokers (freed mask counting up) and in it the first decision
    sequence; None when none plays more than ``better_than``. ``hand``, ``table``,
    ``declared`` as ``best_gain`` takes them. With ``ties`` > 0 returns (that re-partition,
    how many distinct re-partitions play as much, counted up to ``ties``: melds as a
    multiset and the freed jokers' cards). Without ``ties`` it first looks, choice by
    choice, for the first sequence playing ``reach_bound`` (nothing plays more; ``most``:
    that bound when the caller has it), and runs the whole memoised search only when none
    does."""
    values = values or carousel_values()
    choices = list(_choices(hand, table, declared, values, rules, budget))
    if not ties:
        # nothing plays more than the hand cards in some meld of the whole pool: the first
        # choice, and in it the first sequence, that plays that much is the declared one
        if most is None:
            most = reach_bound(hand, table, declared, values, rules)
        if most <= better_than:
            return None
        for freed, floor, choice in choices:
            melds = choice.reaching(floor + most)
            if melds is not None:
                return Repartition(most, melds, freed)
    top = better_than
    found = []  # the choices whose best plays ``top``, in the declared order
    for freed, floor, choice in choices:
        got = choice.best(choice.root)
        if got is None or got - floor < top or got - floor <= better_than:
            continue
        if got - floor > top or not found:
            top = got - floor
            found = []
        found.append((freed, choice))
    best = None
    if found:
        freed, choice = found[0]
        best = Repartition(top, choice.first(), freed)
    if not ties:
        return best
    distinct = set()
    for freed, choice in found:
        cards = tuple(sorted(d for j, d in enumerate(declared) if (freed >> j) & 1))
        distinct.update((cards, melds) for melds in choice.distinct(choice.root, ties))
        if len(distinct) >= ties:
            break
    return best, min(len(distinct), ties)


def reach_bound(hand, table, declared, values=None, rules: Rules = CAROUSEL) -> int:
    """The most hand value any meld action could play: the hand's jokers and its natural
    cards that are in some meld of the whole pool (the table, its jokers both as their cards
    and as wild jokers, the hand)."""
    values = values or carousel_values()
    pool = list(table) + list(declared) + [JOKER] * len(declared) + list(hand)
    reach = {k for m in all_melds(pool, rules) for k in m.naturals}
    return sum(values[k] for k in hand if k in reach or k == JOKER)


def best_gain(
    hand, table, declared, values=None, rules: Rules = CAROUSEL, budget: int | None = None
) -> int:
    """The most hand value one meld action can play (0: no legal action): ``hand`` and
    ``table`` are lists of kinds (``JOKER`` in the hand for a joker; the table's natural
    cards only), ``declared`` the cards the table's jokers were declared as. ``budget``:
    the most positions each joker choice's search may visit (``TooLarge`` beyond it)."""
    best = best_repartition(hand, table, declared, values, rules, budget)
    return best.gain if best is not None else 0


# ---- a plain Carousel self-play (the positions the oracle is checked on) ---------------


def _run_rank(lo: int, q: int) -> int:
    return positions("high_or_low")[lo + q]


def declared_jokers(row_type, lo, length, suit, jokers, shape) -> list[int]:
    """The cards the wild jokers of one meld (a ``melds.py`` candidate's columns) stand for:
    in a group the missing suits from spades up, in a run the empty positions."""
    if jokers == 0:
        return []
    if row_type == 0:  # group of rank lo
        missing = [t for t in range(N_SUITS) if (shape >> (4 * t)) & 0xF == 0]
        return [lo * N_SUITS + t for t in missing[:jokers]]
    out = []
    for q in range(length):
        if (shape >> (3 * q)) & 7 == 4:
            out.append(_run_rank(lo, q) * N_SUITS + suit)
    return out


def positions_from_selfplay(search, count: int, seed: int, max_table: int = 20):
    """Yield ``count`` positions ``(hand, table, declared)`` met by a Carousel self-play of
    3-5 players (two packs, two jokers; §3.16's turn: up to three draws, the first meld
    action found ends the turn, a knock at 5 or less) whose players meld whatever
    ``search(hand, table, declared)`` returns; only positions with at most ``max_table``
    table cards. ``search`` returns ``(gain, melds)`` with melds as
    ``(naturals, wild_joker_cards)`` pairs over the whole new table and the freed mask."""
    rng = random.Random(seed)
    values = carousel_values()
    made = 0
    while made < count:
        players = rng.choice((3, 4, 5))
        deck = [k for k in range(N_NATURAL)] * 2 + [JOKER, JOKER]
        rng.shuffle(deck)
        hands = [[deck.pop() for _ in range(10)] for _ in range(players)]
        table: list[int] = []
        declared: list[int] = []
        seat = 0
        over = False
        while not over and deck:
            hand = hands[seat]
            for _draw in range(3):
                if not deck:
                    break
                hand.append(deck.pop())
                if len(table) + len(declared) <= max_table:
                    yield list(hand), list(table), list(declared)
                    made += 1
                    if made >= count:
                        return
                gain, melds, freed = search(hand, table, declared)
                if gain <= 0:
                    continue
                old = Counter(table) + Counter(
                    d for j, d in enumerate(declared) if not (freed >> j) & 1
                )
                kept = [d for j, d in enumerate(declared) if not (freed >> j) & 1]
                melded = Counter()
                wild = []
                for naturals, jokers in melds:
                    melded.update(naturals)
                    wild.extend(jokers)
                played = melded - old
                assert not (old - melded), "a table card left the table"
                for k in played.elements():
                    hand.remove(k)
                for _ in range(len(wild) - (len(declared) - len(kept))):
                    hand.remove(JOKER)
                table = sorted((melded - Counter(kept)).elements())
                declared = kept + wild
                break
            if not hand or sum(values[k] for k in hand) <= 5:
                over = True
            seat = (seat + 1) % players


def engine_search(node_cap: int = 0):
    """``best_table_meld`` of the engine as ``positions_from_selfplay``'s ``search``."""
    import numpy as np

    from sim.engine import melds as M
    from sim.engine import repartition as R
    from sim.engine.specs import GENERIC

    params = carousel_params()
    values = M.value_table(np.array(carousel_values(), np.int64))
    work = M.new_work()
    rp = R.new_rp()
    declared_arr = np.zeros(R.MAX_TABLE_JOKERS, np.int64)

    def search(hand, table, declared):
        h, hj = layers_of(hand)
        t, _ = layers_of(table)
        for j, d in enumerate(declared):
            declared_arr[j] = d
        gain = R.best_table_meld(
            GENERIC, params, values, work, rp, h, np.int64(hj), t, declared_arr,
            np.int64(len(declared)), np.int64(node_cap), np.int64(0),
            np.int64(-1),
        )  # fmt: skip
        melds = []
        search.chosen = []
        for m in range(int(rp[R.RW_SCAL, R.RP_BEST_N])):
            row = rp[R.RW_BEST + m]
            naturals = []
            for l in range(M.MAX_LAYERS):
                x = int(row[M.CA_TAKE + l])
                naturals += [k for k in range(N_NATURAL) if (x >> k) & 1]
            search.chosen.append((meld_key(row, M), tuple(sorted(naturals))))
            wild = declared_jokers(
                int(row[M.CA_TYPE]), int(row[M.CA_LO]), int(row[M.CA_LEN]),
                int(row[M.CA_SUIT]), int(row[M.CA_JOKERS]), int(row[M.CA_SHAPE]),
            )  # fmt: skip
            melds.append((naturals, wild))
        return int(gain), melds, int(rp[R.RW_SCAL, R.RP_FREED])

    search.rp = rp
    return search


def meld_key(row, M) -> tuple[int, ...]:
    """The ``arrangement.Meld`` key of a ``melds.py`` candidate row (``M``: that module):
    a group ``(0, n_s, n_h, n_d, n_c, jokers)``, a run ``(1, lo, length, d_0, ...)``."""
    shape = int(row[M.CA_SHAPE])
    if int(row[M.CA_TYPE]) == M.MELD_GROUP:
        return (0, *((shape >> (4 * t)) & 0xF for t in range(N_SUITS)), int(row[M.CA_JOKERS]))
    length = int(row[M.CA_LEN])
    return (1, int(row[M.CA_LO]), length, *((shape >> (3 * q)) & 7 for q in range(length)))


def carousel_params():
    import numpy as np

    from sim.engine import layout as L

    params = np.zeros(L.N_PARAMS, np.int64)
    params[L.P_PACKS] = 2
    params[L.P_ACE_RANK] = L.code("ace_rank", "high_or_low")
    params[L.P_RUN_MAX] = N_RANKS
    params[L.P_RUN_SUIT] = L.code("run_suit", "same_suit")
    params[L.P_GROUP_DUPLICATES] = L.code("group_duplicates", "forbidden")
    params[L.P_JOKER_LIMIT] = L.code("joker_limit", "none")
    return params


def layers_of(cards):
    import numpy as np

    from sim.engine.melds import MAX_LAYERS

    layers = np.zeros(MAX_LAYERS, np.int64)
    jokers = 0
    for k in cards:
        if k == JOKER:
            jokers += 1
            continue
        level = 0
        while (layers[level] >> k) & 1:
            level += 1
        layers[level] |= np.int64(1) << k
    return layers, jokers


PLAY_CAP = 20_000


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=0x316)
    parser.add_argument(
        "--node-cap", type=int, default=0, help="the engine's frames per call (0: no cap)"
    )
    parser.add_argument(
        "--max-table", type=int, default=20, help="the most table cards of a position checked"
    )
    parser.add_argument(
        "--reference",
        choices=("oracle", "engine"),
        default="oracle",
        help="what --node-cap is measured against: this oracle, or the uncapped engine "
        "(for tables too large for the oracle; the engine agrees with it up to 20)",
    )
    args = parser.parse_args(argv)
    full = engine_search()
    # the self-play's own moves stop at PLAY_CAP frames (whole-table searches on tables of
    # 40+ cards take seconds uncapped); the positions checked have at most 20 table cards
    play = engine_search(PLAY_CAP)
    search = engine_search(args.node_cap)
    agree = worse = missed = exists = capped = 0
    # the chosen re-partition, where the engine's call was neither capped nor cut short and
    # played the oracle's best: the same melds in the same order and the same freed jokers
    same = chose_other = tied = untested = 0
    times = []
    frames = []
    sizes = Counter()
    slow = (0.0, 0, 0)
    for hand, table, declared in positions_from_selfplay(
        play, args.positions, args.seed, args.max_table
    ):
        start = time.perf_counter()
        got, _, freed = search(hand, table, declared)
        times.append(time.perf_counter() - start)
        scal = search.rp[-1]  # the workspace's scalars (RW_SCAL)
        frames.append(int(scal[3]))  # RP_NODES
        capped += int(scal[4])  # RP_CAPPED
        exact = not scal[4] and not scal[5]  # neither RP_CAPPED nor RP_TRUNCATED
        chosen = list(search.chosen)
        start = time.perf_counter()
        mine = None
        if args.reference == "oracle":
            mine, ties = best_repartition(hand, table, declared, ties=2)
            want = mine.gain if mine is not None else 0
        else:
            want = full(hand, table, declared)[0]
        slow = max(slow, (time.perf_counter() - start, len(hand), len(table) + len(declared)))
        if len(times) % 1000 == 0:
            print(f"{len(times)} positions; slowest oracle call {slow}", file=sys.stderr,
                  flush=True)  # fmt: skip
        sizes[(len(table) + len(declared)) // 5 * 5] += 1
        exists += want > 0
        if got == want:
            agree += 1
        elif got == 0:
            missed += 1
        else:
            worse += 1
        if got != want and not args.node_cap:
            print("differ:", hand, table, declared, "engine", got, "oracle", want, flush=True)
        if mine is None or got != want:
            continue
        if not exact:
            untested += 1
            continue
        tied += ties > 1
        if chosen == [(m.key, m.naturals) for m in mine.melds] and freed == mine.freed:
            same += 1
        else:
            chose_other += 1
            print("chose another:", hand, table, declared, "engine", chosen, freed, "oracle",
                  [(m.key, m.naturals) for m in mine.melds], mine.freed, flush=True)  # fmt: skip
    n = len(times)
    times.sort()
    frames.sort()
    print(
        f"positions {n}: agree {agree}, differ {n - agree} (engine found none: {missed}, "
        f"found a worse one: {worse}); a legal action existed in {exists}; capped {capped}"
    )
    if args.reference == "oracle":
        print(
            f"the chosen re-partition, where both play the same (more than 0): "
            f"{same + chose_other} compared, {tied} tied (several distinct re-partitions play "
            f"as much); the engine's is the declared one in {same}, another in {chose_other};"
            f" not compared (the engine's call capped or cut short): {untested}"
        )
    print(
        f"engine per call: mean {sum(times) / n * 1e6:.1f} us, median "
        f"{times[n // 2] * 1e6:.1f} us, 99th percentile {times[n * 99 // 100] * 1e6:.1f} us, "
        f"max {times[-1] * 1e3:.2f} ms; frames mean {sum(frames) / n:.1f}, "
        f"99th percentile {frames[n * 99 // 100]}, max {frames[-1]}"
    )
    print("positions by table cards (0-4, 5-9, ...):", dict(sorted(sizes.items())))
    return 0 if (agree == n or args.node_cap) and not chose_other else 1


if __name__ == "__main__":
    sys.exit(main())
