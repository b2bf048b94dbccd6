"""The Monte Carlo bot ``mcN`` (docs/bots.md, "mcN"): a hand played through the one turn
loop, which stops when an ``mcN`` seat must decide (``hand.play_turns``, ``REASON_DECIDE``).

At each stop the seat's candidate moves are played out on the same N sampled deals: for
each sample and candidate, the state is copied into scratch arrays, the cards the seat has
not seen (the stock and the opponents' hands but the cards each opponent took from the
discard pile and still holds, ``S_PICKED``) are shuffled and dealt back to the opponents,
the same number each, and to the stock, in kind order before the shuffle so that where each
lay shapes nothing (``_resample``), each opponent's stock draws are replayed with the
default policy so that his hand is one his play kept (``_replay``), of up to
``MC_TRIES`` such deals the first whose opponents' hands all fit their last discards is
kept (``_fitted_sample``), the candidate is
written into the copy as this turn's decided answer (``C_MC_DRAW``, ``C_MC_CARD``,
``C_MC_KNOCK``), and the same turn loop (``play_turns``) plays the hand out on the copy
with the default policy at every seat (simple in the knock family, greedy elsewhere:
``default_bots``), then ``finish_hand`` scores it. A playout is worth ``players * own score
- sum of scores`` to the seat, and a candidate's gain on a sample is its worth less the
default move's on the same sample. The default move (``_default_move``, always a
candidate) is the default policy's draw, and its discard but in the knock family, where it
is careful's discard and knock (careful beats simple there; the playouts stay simple:
careful's discard costs far more, docs/bots.md, "mcN"). Every candidate is played on the
first ``1 / MC_FIRST`` of the samples, then only the default move and the ``MC_KEPT - 1``
others with the highest summed gains on the rest (successive halving); of those, the one
with the highest mean gain over all the samples is played if that mean is more than
``MC_MARGIN`` standard errors of the gain above 0, else the default move (``_best``). The
samples are seeded from one draw of the hand's bot stream, so a decision depends only on
what the seat has seen and the stream, never on the hidden cards
(``tests/engine/test_mc.py``).

Candidates (``_candidates``): the draw (when the loop asks, ``hand._mc_asks``): the stock
or the discard top; the discard in the knock family: the ``MC_DISCARDS`` allowed cards that
leave the least deadwood (ties: the higher value, then kind), each without a knock, and the
first of them also with one when the rules allow it (a discard that leaves no deadwood:
with the knock only);
the discard in progressive rummy: greedy's discard and the other allowed cards of highest
value (ties: the higher kind), ``MC_DISCARDS`` in all. What the loop does not ask (the
table play, gin's upcard offer, calls) mcN answers as greedy.

There is no recursion: ``game.play_games`` calls ``play_turns`` on the real state and, at
each stop, ``decide``, which calls ``play_turns`` on the copies with default bots, which
never stop. ``decide`` is compiled only where a seat may be an ``mcN`` bot (the engine slot
``mc_seats``, set by ``api.play``), so the specs that fix it to 0 compile none of this
module's playouts.
"""

from __future__ import annotations

import numpy as np

from sim.cards import JOKER
from sim.engine.bitops import popcount
from sim.engine.bots import choose_discard, knock_discard, wants_discard
from sim.engine.go_out import knocking, within_limit
from sim.engine.greedy import greedy_discard
from sim.engine.hand import (
    Q_DISCARD,
    Q_DRAW,
    STAGE_DRAW,
    finish_hand,
    play_turns,
)
from sim.engine.jit import allocating, kernel
from sim.engine.layoffs import seat_arrangement
from sim.engine.layout import (
    BOT_CAREFUL,
    BOT_GREEDY,
    BOT_SIMPLE,
    P_MC_SEATS,
    P_MELD_TIMING,
    P_PLAYERS,
    TIMING_KNOCK,
)
from sim.engine.legal import discard_allowed
from sim.engine.restrict import mc_samples
from sim.engine.rng import GOLDEN, RNG_BOTS, RNG_DEAL, below, mix64
from sim.engine.specs import gated, rule
from sim.engine.state import (
    C_DISCARD_N,
    C_LOG,
    C_MC_ASKED,
    C_MC_CARD,
    C_MC_DRAW,
    C_MC_KNOCK,
    C_N_MELDS,
    C_STAGE,
    C_STOCK_N,
    C_TAKEN,
    MAX_SHOE,
    PILE_DISCARD,
    PILE_STOCK,
    R_MELD,
    R_SC,
    R_SEAT,
    S_ARR_MASK,
    S_DRAWS,
    S_HAND,
    S_JOKERS,
    S_LAST_DISCARD,
    S_PICKED,
    S_STOCK_SEEN,
    give,
    take,
)

MC_DISCARDS = 3  # discards tried at a discard decision
MC_KEPT = 2  # candidates played out on the samples after the first 1 / MC_FIRST of them
MC_FIRST = 4
MC_MARGIN = 1.0  # a move replaces the default move when it gains more than this many
# standard errors of its paired gain over the samples (_best)
MC_REPLAY = 16  # an opponent's stock draws replayed at most (_replay)
MC_EXTRA = 8  # ... and draws more while his hand does not fit his last discard
MC_TRIES = 4  # deals drawn for a sample; the first that fits every opponent's last
# discard is kept, else the first with the fewest that do not (_fitted_sample)
# the scratch rows (``new_mc_scratch``, int64[N_MC_ROWS, MAX_SHOE])
MC_BOTS = 0  # the playouts' bots
MC_SCORES = 1  # a playout's scores
MC_SIDE = 2  # ... and side bonuses
MC_NEED = 3  # cards each opponent gave up to the resample
MC_CARDS = 4  # the unseen cards, shuffled
MC_CANDIDATES = 5  # the candidates' draws or cards
MC_KNOCKS = 6  # ... and knocks
MC_GAINS = 7  # each candidate's sum over the samples of its value less the default move's
MC_RANKS = 8  # each card's rank among the discards
MC_ACTIVE = 9  # 1 for a candidate still played out
MC_HANDS = 10  # a sample's hands (one pack: one mask a seat)
MC_STOCK = 11  # ... and its stock
MC_VALUES = 12  # each candidate's value on this sample
MC_GAINS2 = 13  # each candidate's sum over the samples of its gain's square (MC_GAINS)
N_MC_ROWS = 14


@kernel
def default_bots(fx, params, out):
    """The playouts' bots (``int64[2 * players]``): simple in the knock family, greedy
    elsewhere, at every seat, no flags."""
    players = rule(fx, params, P_PLAYERS)
    policy = BOT_SIMPLE if knocking(fx, params) else BOT_GREEDY
    for p in range(players):
        out[p] = policy
        out[players + p] = 0


@kernel
def _copy(st, piles, st2, piles2):
    """The state into the scratch copy: the seats, the scalar row and the table's melds,
    the stock and the discard pile."""
    for r in range(R_MELD + st[R_SC, C_N_MELDS]):
        for c in range(st.shape[1]):
            st2[r, c] = st[r, c]
    for i in range(st[R_SC, C_STOCK_N]):
        piles2[PILE_STOCK, i] = piles[PILE_STOCK, i]
    for i in range(st[R_SC, C_DISCARD_N]):
        piles2[PILE_DISCARD, i] = piles[PILE_DISCARD, i]


@kernel
def _resample(fx, params, values, bots2, st, piles, rng, work, seat, buf, need):
    """A deal of the cards ``seat`` has not seen, consistent with what he has (module
    docstring): the opponents' unknown cards and the stock shuffled together (the deal
    stream of ``rng``) and dealt back, as many to each as he gave up, then each opponent's
    stock draws replayed (``_replay``), the rest to the stock, shuffled again. Returns how
    many opponents' replayed hands do not fit their last discard (``_fits_last``; an
    opponent whose whole hand is known is not counted: his fit is the same in every deal)."""
    players = rule(fx, params, P_PLAYERS)
    n = np.int64(0)
    for p in range(players):
        need[p] = 0
        if p == seat:
            continue
        row = R_SEAT + p
        known = st[row, S_PICKED] & st[row, S_HAND]
        hidden = st[row, S_HAND] & ~known
        while hidden != 0:
            k = 0
            while (hidden >> k) & 1 == 0:
                k += 1
            hidden &= ~(np.int64(1) << k)
            take(fx, params, st, p, np.int64(k))
            buf[n] = k
            n += 1
            need[p] += 1
        for _ in range(st[row, S_JOKERS]):
            take(fx, params, st, p, np.int64(JOKER))
            buf[n] = JOKER
            n += 1
            need[p] += 1
        st[row, S_ARR_MASK] = 0  # his kept arrangement was of other cards
        st[row, S_STOCK_SEEN] = 0  # what he drew is not the seat's to know
    stock = st[R_SC, C_STOCK_N]
    for i in range(stock):
        buf[n] = piles[PILE_STOCK, i]
        n += 1
    # in kind order first: where each unseen card lay (which hand, where in the stock) is
    # hidden, and must not shape the sample
    for i in range(1, n):
        k = buf[i]
        j = i - 1
        while j >= 0 and buf[j] > k:
            buf[j + 1] = buf[j]
            j -= 1
        buf[j + 1] = k
    dealt = n - stock
    _shuffle(rng, buf, np.int64(0), n)
    i = 0
    for p in range(players):
        for _ in range(need[p]):
            give(fx, params, st, p, buf[i])
            i += 1
    cursor = dealt
    misfits = np.int64(0)
    for p in range(players):
        if need[p] > 0:
            cursor, fits = _replay(
                fx, params, values, bots2, st, piles, rng, work, p, buf, cursor, n
            )
            if not fits:
                misfits += 1
    _shuffle(rng, buf, dealt, n)
    for i in range(stock):
        piles[PILE_STOCK, i] = buf[dealt + i]
    return misfits


@kernel
def _fits_last(fx, params, values, bots2, st, piles, rng, work, p):
    """Does opponent ``p``'s sampled hand fit his last discard (``S_LAST_DISCARD``): would
    the playouts' default policy (``bots2``), holding that hand and the card, discard the
    card, and (knock family) not knock with it? His own bot, if it is the default one,
    always would (simple and greedy discard the highest card outside their melds, so every
    card he kept outside them ranks below it)."""
    last = st[R_SEAT + p, S_LAST_DISCARD] - 1
    if last < 0:
        return True
    taken = st[R_SC, C_TAKEN]
    st[R_SC, C_TAKEN] = -1  # this turn's take is the seat's, not the opponent's
    give(fx, params, st, p, last)
    out, knock = _default_discard(fx, params, values, bots2, st, piles, rng, work, p)
    take(fx, params, st, p, last)
    st[R_SEAT + p, S_ARR_MASK] = 0
    st[R_SC, C_TAKEN] = taken
    return out == last and not knock


@kernel
def _default_discard(fx, params, values, bots2, st, piles, rng, work, p):
    """``(card, knock)``: what the playouts' default policy (``bots2``) discards from ``p``'s
    hand of one card more than the deal, and (knock family) whether it knocks with it."""
    if knocking(fx, params):
        return knock_discard(fx, params, values, bots2, st, piles, rng, work, p)
    return choose_discard(fx, params, values, bots2, st, piles, rng, p), False


@kernel
def _shuffle(rng, buf, lo, hi):
    """``buf[lo:hi]`` shuffled in place (Fisher-Yates, the deal stream of ``rng``)."""
    for i in range(hi - 1, lo, -1):
        j = lo + below(rng, np.int64(RNG_DEAL), i - lo + 1)
        buf[i], buf[j] = buf[j], buf[i]


@kernel
def _replay(fx, params, values, bots2, st, piles, rng, work, p, buf, cursor, end):
    """Opponent ``p``'s sampled hand made like one his play built: he has drawn ``S_DRAWS``
    cards this hand, those he took from the discard pile (``S_PICKED``, public) aside, so
    he has seen as many stock cards more than he holds, and kept the ones his play keeps.
    For each of those draws (at most ``MC_REPLAY``, while the cards ``buf[cursor:end]``
    meant for the stock last) he draws the next of them and discards by the playouts'
    default policy (``bots2``); the discard, never a card he is known to hold, takes the
    drawn card's place in ``buf``. Then, while his hand does not fit his last discard
    (``_fits_last``), he draws and discards again, at most ``MC_EXTRA`` times: that discard
    says his play kept nothing worse, which a hand of fewer draws may not yet show. Returns
    the next unused place and whether his hand now fits his last discard. A uniform hand
    of the unseen cards is far weaker than one kept by play, and playouts against it
    overrate the seat's chances (docs/bots.md, "mcN")."""
    row = R_SEAT + p
    draws = min(st[row, S_DRAWS] - popcount(st[row, S_PICKED]), np.int64(MC_REPLAY))
    fits = False
    for step in range(draws + MC_EXTRA):
        if cursor >= end:
            break
        if step >= draws:
            fits = _fits_last(fx, params, values, bots2, st, piles, rng, work, p)
            if fits:
                break
        card = buf[cursor]
        give(fx, params, st, p, card)
        out, _ = _default_discard(fx, params, values, bots2, st, piles, rng, work, p)
        if (st[row, S_PICKED] >> out) & 1 != 0:
            out = card  # he holds his taken cards: the drawn one goes back
        take(fx, params, st, p, out)
        st[row, S_ARR_MASK] = 0
        buf[cursor] = out
        cursor += 1
    if not fits:  # a card drawn since the last look, or none looked at
        fits = _fits_last(fx, params, values, bots2, st, piles, rng, work, p)
    return cursor, fits


@kernel
def _fitted_sample(fx, params, values, bots2, st, piles, st2, piles2, rng2, work2, seat, buf,
                   need, hands, stock, sample):  # fmt: skip
    """Sample ``sample``'s deal into ``hands``/``stock`` (``_save_sample``): up to
    ``MC_TRIES`` deals are drawn (``_resample``, the first from ``sample`` itself) and the
    first in which every opponent's hand fits his last discard (``_fits_last``) is kept, else
    the first with the fewest opponents whose hand does not. A rejection step on top of the
    replay: the replay draws on only while a hand misfits, and when its draws run out the
    deal may still be one the opponent's play would not have led to. Reads only the sample
    and what every seat has seen (``S_LAST_DISCARD`` is public)."""
    fewest = np.int64(-1)
    for t in range(MC_TRIES):
        draw = sample if t == 0 else mix64(sample + np.uint64(3 + t) * GOLDEN)
        _copy(st, piles, st2, piles2)
        rng2[RNG_DEAL] = draw
        rng2[RNG_BOTS] = mix64(draw + GOLDEN)
        misfits = _resample(fx, params, values, bots2, st2, piles2, rng2, work2, seat, buf, need)
        if fewest < 0 or misfits < fewest:
            fewest = misfits
            _save_sample(fx, params, st2, piles2, hands, stock)
        if misfits == 0:
            return


@kernel
def _save_sample(fx, params, st, piles, hands, stock):
    """The sampled deal in ``st``/``piles`` (every seat's hand, one pack; the stock) into
    ``hands`` and ``stock``, to be dealt again into each candidate's copy (``_load_sample``)."""
    for p in range(rule(fx, params, P_PLAYERS)):
        hands[p] = st[R_SEAT + p, S_HAND]
    for i in range(st[R_SC, C_STOCK_N]):
        stock[i] = piles[PILE_STOCK, i]


@kernel
def _load_sample(fx, params, st, piles, seat, hands, stock):
    """``_save_sample``'s deal into the copy ``st``/``piles`` (as many cards a hand, so
    only which cards lie where changes; the opponents' kept arrangements and stock memories
    reset as ``_resample`` resets them)."""
    for p in range(rule(fx, params, P_PLAYERS)):
        if p != seat:
            row = R_SEAT + p
            st[row, S_HAND] = hands[p]
            st[row, S_ARR_MASK] = 0
            st[row, S_STOCK_SEEN] = 0
    for i in range(st[R_SC, C_STOCK_N]):
        piles[PILE_STOCK, i] = stock[i]


@gated(P_MELD_TIMING, lambda v: v == TIMING_KNOCK, np.int64(0))
@kernel
def _left_after(fx, params, values, st, work, seat, hand, card):
    """The knock family: the deadwood ``seat``'s ``hand`` keeps without ``card``."""
    dw, _ = seat_arrangement(
        fx, params, values, st, work, seat, hand & ~(np.int64(1) << card), np.bool_(False),
        np.int64(0),
    )  # fmt: skip
    return dw


@gated(P_MELD_TIMING, lambda v: v == TIMING_KNOCK, np.bool_(False))
@kernel
def _may_knock_with(fx, params, st, deadwood):
    """The knock family: may a player keeping ``deadwood`` knock?"""
    return within_limit(fx, params, st, deadwood)


@kernel
def _candidates(fx, params, values, st, work, seat, question, cards, knocks, scores):
    """The candidate moves (module docstring) into ``cards`` (the draw: 1 the stock, 2 the
    discard top; a discard: the card) and ``knocks``; returns how many. ``scores``
    (``int64[64]`` at least) is scratch: each card's rank."""
    if question == Q_DRAW:
        cards[0] = 1
        cards[1] = 2
        return 2
    hand = st[R_SEAT + seat, S_HAND]
    knock = knocking(fx, params)
    for k in range(64):
        scores[k] = np.int64(1) << 40  # a card's rank: lower is tried first
    first = np.int64(-1)
    if not knock:
        first = greedy_discard(fx, params, values, st, seat)
    left = hand
    while left != 0:
        k = 0
        while (left >> k) & 1 == 0:
            k += 1
        left &= ~(np.int64(1) << k)
        if not discard_allowed(fx, params, st, seat, np.int64(k)):
            continue
        if knock:
            dw = _left_after(fx, params, values, st, work, seat, hand, np.int64(k))
            scores[k] = (dw * 64 - values[k]) * 64 - k
        else:
            scores[k] = -(values[k] * 64 + k)
    if first >= 0:
        scores[first] = -(np.int64(1) << 40)
    n = 0
    for _ in range(MC_DISCARDS):
        best = -1
        for k in range(64):
            if scores[k] < (np.int64(1) << 40) and (best < 0 or scores[k] < scores[best]):
                best = k
        if best < 0:
            break
        scores[best] = np.int64(1) << 40
        if knock and n == 0:  # the knock is tried with the least-deadwood discard only
            dw = _left_after(fx, params, values, st, work, seat, hand, np.int64(best))
            if _may_knock_with(fx, params, st, dw):
                cards[n] = best
                knocks[n] = 1
                n += 1
                if dw == 0:
                    continue  # gin (rum): always knocked
        cards[n] = best
        knocks[n] = 0
        n += 1
    return n


@allocating
def new_mc_scratch():
    """The Monte Carlo bot's scratch rows (``MC_*``; ``game.play_games`` makes one)."""
    return np.zeros((N_MC_ROWS, MAX_SHOE), np.int64)


@kernel
def _answer(st, question, card, knock):
    """Write the answer to ``question`` into ``st`` as this turn's decided one: the draw
    (``C_MC_DRAW``: ``card`` is 1 the stock or 2 the discard top), or the discard
    ``card`` (``C_MC_CARD``, plus one) and whether to knock (``C_MC_KNOCK``)."""
    st[R_SC, C_MC_ASKED] = question
    if question == Q_DRAW:
        st[R_SC, C_MC_DRAW] = card
    else:
        st[R_SC, C_MC_CARD] = card + 1
        st[R_SC, C_MC_KNOCK] = knock


@kernel
def _default_move(fx, params, values, bots2, st, piles, rng, work, seat, question, cards,
                  knocks, n):  # fmt: skip
    """The index among the ``n`` candidates (``cards``, ``knocks``) of the default move for
    ``seat`` in the state ``st`` (a scratch copy: its answer may update the seat's kept
    arrangement), added as one more candidate when it is not among them: the draw of the
    playouts' default policy (``bots2``); the discard of that policy, but in the knock family
    careful's discard and knock (``bots2[seat]`` is careful for that call only, and reset).
    careful reads only what the seat has seen (its hand, the discard pile, the cards each
    player took from it, the hand sizes). Returns ``(index, n)``."""
    card = np.int64(1)
    knock = np.int64(0)
    if question == Q_DRAW:
        top = piles[PILE_DISCARD, st[R_SC, C_DISCARD_N] - 1]
        if wants_discard(fx, params, values, bots2, st, piles, rng, work, seat, top):
            card = np.int64(2)
    else:
        saved = bots2[seat]
        if knocking(fx, params):
            bots2[seat] = BOT_CAREFUL
        out, knocked = _default_discard(fx, params, values, bots2, st, piles, rng, work, seat)
        bots2[seat] = saved
        card = out
        knock = np.int64(1) if knocked else np.int64(0)
    for c in range(n):
        if cards[c] == card and knocks[c] == knock:
            return c, n
    cards[n] = card
    knocks[n] = knock
    return n, n + 1


@kernel
def _best(gains, gains2, active, n, base, samples):
    """The candidate played (module docstring): of those still ``active`` after all the
    ``samples``, the one whose paired gain over the default move ``base`` (``gains``: its
    sum; ``gains2``: the sum of its squares) is highest, if that gain is more than
    ``MC_MARGIN`` standard errors of it; otherwise ``base``."""
    best = base
    for c in range(n):
        if c == base or active[c] == 0 or gains[c] <= 0:
            continue
        if best != base and gains[c] <= gains[best]:
            continue
        mean = gains[c] / samples
        var = (gains2[c] - gains[c] * mean) / max(samples - 1, 1)
        if mean * mean * samples > MC_MARGIN * MC_MARGIN * var:
            best = c
    return best


@kernel
def mc_decide(
    fx, params, values, st, piles, rng, st2, piles2, rng2, work2, events2, mcs, seat,
    question, samples,
):  # fmt: skip
    """``seat``'s answer to ``question`` on ``samples`` sampled deals (module docstring),
    written into ``st`` for the loop to take (``C_MC_DRAW``, or ``C_MC_CARD`` and
    ``C_MC_KNOCK``). ``st2``, ``piles2``, ``rng2``, ``work2``, ``events2``: the playouts'
    copies; ``mcs``: scratch rows (``new_mc_scratch``)."""
    players = rule(fx, params, P_PLAYERS)
    bots2 = mcs[MC_BOTS]
    default_bots(fx, params, bots2)
    scores = mcs[MC_SCORES]
    side = mcs[MC_SIDE]
    need = mcs[MC_NEED]
    buf = mcs[MC_CARDS]
    cards = mcs[MC_CANDIDATES]
    knocks = mcs[MC_KNOCKS]
    gains = mcs[MC_GAINS]
    gains2 = mcs[MC_GAINS2]
    value = mcs[MC_VALUES]
    active = mcs[MC_ACTIVE]
    hands = mcs[MC_HANDS]
    stock = mcs[MC_STOCK]
    n = _candidates(fx, params, values, st, work2, seat, question, cards, knocks, mcs[MC_RANKS])
    _copy(st, piles, st2, piles2)
    base, n = _default_move(
        fx, params, values, bots2, st2, piles2, rng2, work2, seat, question, cards, knocks, n
    )
    for c in range(n):
        gains[c] = 0
        gains2[c] = 0
        active[c] = 1
    rng[RNG_BOTS] += GOLDEN  # one draw of the hand's bot stream seeds the samples
    root = mix64(rng[RNG_BOTS])
    for i in range(samples if n > 1 else 0):
        if i == samples // MC_FIRST and n > MC_KEPT:  # then only the best MC_KEPT go on
            for _ in range(n - MC_KEPT):
                worst = -1
                for c in range(n):
                    if c != base and active[c] == 1 and (worst < 0 or gains[c] < gains[worst]):
                        worst = c
                active[worst] = 0
        sample = mix64(root ^ (np.uint64(i + 1) * GOLDEN))
        _fitted_sample(
            fx, params, values, bots2, st, piles, st2, piles2, rng2, work2, seat, buf, need,
            hands, stock, sample,
        )  # fmt: skip
        playout = mix64(sample + np.uint64(2) * GOLDEN)
        for c in range(n):
            if active[c] == 0:
                continue
            _copy(st, piles, st2, piles2)
            _load_sample(fx, params, st2, piles2, seat, hands, stock)
            st2[R_SC, C_LOG] = 0
            rng2[RNG_DEAL] = playout
            rng2[RNG_BOTS] = mix64(playout + GOLDEN)
            _answer(st2, question, cards[c], knocks[c])
            reason, winner = play_turns(
                fx, params, values, bots2, st2, piles2, rng2, work2, events2
            )
            finish_hand(
                fx, params, values, st2, piles2, work2, events2, reason, winner, scores, side
            )
            total = np.int64(0)
            for p in range(players):
                total += scores[p]
            value[c] = players * scores[seat] - total
        for c in range(n):
            if active[c] == 1:
                gain = value[c] - value[base]
                gains[c] += gain
                gains2[c] += gain * gain
    best = _best(gains, gains2, active, n, base, np.int64(samples))
    _answer(st, question, cards[best], knocks[best])


@gated(P_MC_SEATS, lambda v: v == 1, None)
@kernel
def decide(fx, params, values, bots, st, piles, rng, scratch, piles2, rng2, work2, events2,
           mcs, seat):  # fmt: skip
    """The answer of ``seat``'s ``mcN`` bot to the question the loop stopped for
    (``REASON_DECIDE``: the draw at ``STAGE_DRAW``, else the discard), decided on its N
    samples (``mc_decide``, on the scratch copies ``scratch``, ``piles2``, ``rng2``,
    ``work2``, ``events2`` and the scratch rows ``mcs``). Compiled only where a seat may be
    an ``mcN`` bot (``mc_seats``)."""
    question = np.int64(Q_DRAW) if st[R_SC, C_STAGE] == STAGE_DRAW else np.int64(Q_DISCARD)
    mc_decide(
        fx, params, values, st, piles, rng, scratch, piles2, rng2, work2, events2,
        mcs, seat, question, mc_samples(fx, params, bots, seat),
    )  # fmt: skip
