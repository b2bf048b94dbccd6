"""Slow, plain reference hand of progressive rummy with the ``greedy`` and ``random`` bots
(and of Conquian and Carousel with ``greedy``, ``careful`` and ``random``, and of the knock
family; Tonk, Phỏm, Nowrang and Continental with ``greedy`` and ``random``).

The oracle of ``sim.engine`` (docs/engine-plan.md, "The play, exactly"): it plays one hand
from the same random streams and writes the same event log, so a disagreement points at
one event. It imports nothing from the engine (``sim.engine``): the random streams
(splitmix64) are written again here with explicit 64-bit masking, the best arrangement is
the brute-force ``tests.oracles.arrangement`` with its declared tie-break, and the rules
are read from the rules model (``sim.rules``) and its card values.

What it plays (what ``sim.engine`` plays today): one or more packs, with or without jokers
(below), every ace rule, runs of one suit or any suits, groups without duplicates or, in
progressive rummy, with them (``group_duplicates = allowed``), ``melds_per_turn``
``unlimited`` or ``one``, lay-offs on any meld (``layoff_requires_meld`` off, or on other
players' melds only after one's first meld or after a lay-off on an own meld, §2D.21), an
upcard, going out with or without a discard, going rummy, the three ``discard_draw`` rules
(RULES.md §2C.16: the discard top; ``any_card``, §3.6: any one card of the unordered
discard area, which is kept in the order its cards were thrown, the taken card's place
closing up; ``top_plus_one``, §3.7: the discard top and then the next discard or the
stock's next card, never when neither is there, and neither taken card may be discarded
that turn), stock exhaustion ``turn_over``, ``shuffle_except_top``, ``shuffle_all`` (§3.6:
the whole discard pile shuffled into the stock, whose next card is turned up as the new
discard pile) and the block rules (RULES.md §2F.28, §3.5: with the stock empty nothing is
rebuilt and no draw is forced; a player who does not take the discard top declines it,
``E_BLOCK``, and the hand ends ``block`` with that turn counted; every player totals his
cards, the lowest total wins the difference to each other total, ``block_difference``, or
the sum of the other totals, ``block_totals``, split floor among the players tied for it,
who are no winner; under penalty scoring each other player loses his own total), Call
Rummy (RULES.md §3.2, ``call_rummy``): after a discard that does not end the hand, the
players after the discarder, clockwise from his left, may call it when it fits a table meld
he may lay off on; greedy always calls, so the first of them who may calls it: he lays it
off on the first such meld (which changes the table), then discards as greedy with nothing
planned, no card taken and nothing come round; his discard may be called again; the called
lay-off is a card played (no rummy afterwards), and a caller whose discard empties his hand
went out (never rummy); play goes on after the original discarder; and ``meld_timing =
"all_at_once"`` (RULES.md §2D.18, §3.4, §3.7, §3.12, greedy as docs/bots.md, "All at
once", states it: nothing is laid down until a player goes out with his whole hand, or with
all of it but one card he then discards; the scorings ``unmelded_to_winner`` and
``own_melds_from_each``), and the initial meld (RULES.md §2D.24-25, docs/variants.md "The
initial meld"): before it, greedy lays down only an arrangement whose melds count
``initial_meld_min`` (each card at its value, an ace just before a 2 in a run at
``opening_ace_low`` when that is 1) and lays nothing off; under ``only_for_initial_meld``
it takes the discard top only when its arrangement with that card makes the initial meld
and melds the card (which it must then meld; the initial meld is made once it is down).

Tonk (RULES.md §3.22, family ``tonk``; docs/variants.md "Tonk", docs/bots.md "Tonk"):
after the deal every dealt total that is an instant tonk (``tonk_instant``, ``tonk_super``)
is logged (``E_TONK``, b = 1 when tied at the best) and the hand ends ``tonk`` (the best)
or ``redeal`` (tied); each turn greedy may drop before its draw and after its table play
(``E_DROP``, a = its total; the turn counts): not with one card left that it may discard
after drawing, else when its total is at most 3 points per card of the opponent holding the
fewest; a turn that begins with the stock empty ends the hand (``stock_out``, or ``redeal``
under ``tonk_stock_out = redeal``) before any draw; the table options
``tonk_no_fourth_in_group``, ``tonk_one_layoff_per_turn`` and ``tonk_layoff_skips_discard``;
the chips (``settle``) of going out (1 after a discard, 2 without, 1 under the flat
payment), a tonk (2, a super tonk 3), the drop (its tables; ``drop`` or ``caught``) and the
stock-out; ``tonk_stock_card_must_play`` (greedy lays the card drawn from the stock off on
the first meld that takes it, else lays down its best arrangement that melds it, else
discards it, which ends the turn). ``tonk_meld_immediately`` changes nothing for greedy,
which lays down every meld it may; ``tonk_wait`` raises ``NotImplementedError``. Random
(docs/bots.md "Tonk: the drop", its numbers exactly as stated there): the drop on
``below(8) == 0`` at each ask; a coin to take the discard top; under
``tonk_stock_card_must_play`` one pick over the new melds through the stock card, its
lay-off and its discard; then, while it holds cards, one pick over its table actions and
stopping (``tonk_actions``: new melds under their lowest card, then lay-offs), under
``tonk_meld_immediately`` over its new melds alone while it has one; a uniform allowed
discard.

Phỏm (RULES.md §3.13, §2K, family ``phom``; docs/variants.md "Phỏm", greedy as
sim/engine/phom_policy.py's docstring states it): 9 cards each, dealt one at a time from
the first player (the dealer's next), who gets a 10th card last; no upcard. His turn 1 has
no draw. A turn: the discard top when the hand with it admits an arrangement in which every
card taken from the discard pile this hand and still held, and the new one, sits in a meld
of its own (``tests.oracles.arrangement``'s ``apart``; greedy always takes it then), else
the stock (``E_DRAW_DISCARD``/``E_DRAW_STOCK``, b = 0); then Ù when the whole hand melds
(taken cards apart: no discard), else when the hand less one card (not a taken card, the
lowest-valued; ties: the higher kind) melds so: the best arrangement's melds go down in its
order, then that discard, and the hand ends ``went_u``. Otherwise greedy discards, of the
cards allowed (not taken, the rest still keeping the taken cards apart), the one leaving the
least deadwood (ties: the higher value, then the higher kind); in the player's fourth turn
(turn index at least 3 × players, the opening being 0) he first lays down the best
arrangement of his hand less that card (taken cards apart) and, under
``phom_layoff_others``, lays off: each card but the discard from the lowest kind up on the
first meld of another player that takes it, pass after pass until one lays nothing off.
After 4 × players turns the hand ends ``showdown``. Chips (``settle_phom``): Ù 6 from each
opponent after a discard, 12 without (``phom_three_taken_liability``: the winner who took 3
discards or more is paid it all by the player before him); the showdown ranks a player
who showed no meld (móm) last, then by the value of the cards left in hand (``face_values``),
then by turn order from the first player; each other player pays the first his place (1,
2, 3), a móm player 4; ``phom_discard_taken_penalty``: 1 chip per discard taken, from the
player before the taker, in either ending. Random (docs/bots.md "Phỏm"): a coin for each
take the rules allow, a uniform allowed discard (kind order), and in the fourth turn a coin
for each card that fits another player's meld, pass after pass until one lays nothing off.

Conquian (RULES.md §3.21, family ``conquian``; docs/variants.md "Conquian", the bots as
docs/bots.md "Conquian: uses, forcing and discards" states them): 10 cards each, no upcard,
every card worth 1. A drawn card never enters a hand; the one card on offer is the last
discard or a stock card passed. A turn: with a card on offer, if it fits one of the
player's melds (``fits``, runs at most ``run_max`` long) the other player may first force
him (``E_FORCE``: careful always, greedy never, random on a coin); he then uses it when it
has a use and he is forced or wants to (greedy and careful always, random on a coin),
else turns it down (``E_REJECT``, out of play). After a rejection, or with nothing on
offer, the stock's top card is turned up (``E_EXPOSE``; with the stock empty the hand is
drawn, ``exhausted``) and used (the same test, without forcing) or passed (``E_PASS``: it is
on offer to the next player, no discard). A use (``E_USE``, b = 1 for the card on offer) is
the best arrangement (``tests.oracles.arrangement`` with ``keep``, so the most cards
melded, then the declared order) of the hand, the exposed card and, under ``rearrange =
own``, all his melds, melding every card of those melds and the exposed card in at most one
meld more than he has; under ``none`` one new meld holding the card, or, in table order,
one of his melds formed again as one meld with the card and hand cards (a lay-off), the one
adding the most cards to the table (the new meld first). The melds taken up that the use
leaves as they were stay; the others go back to his hand (``E_REFORM``, a = how many, their
cards) and leave the table from the last, each place taken by the table's last meld; the
use's other melds go down in its order (``E_MELD``). An empty hand then has 11 cards melded:
he goes out (``went_out``, no discard); else he discards (greedy: the card with the fewest
ties, the others of its rank and those of its suit one or two run positions away, 2 more
when it fits one of his melds; ties: the higher kind; careful the same among the cards
that fit none of the other player's melds, when there are any; random a uniform card), and
that card is on offer. The winner scores the hand's stake (``stake``: 1, one more after
each drawn hand in a row, ``drawn_hand_carry``; the caller carries it between hands).

Nowrang (RULES.md §3.15, ``go_out_pattern = "runs_4_3_3"`` under all_at_once; docs/variants.md
"Nowrang", greedy as docs/bots.md "Fixed patterns: Nowrang" states it): with ``upcard`` off in
the rummy family the first player is dealt an 11th card after the others' 10, no upcard is
turned and his first turn has no draw. Greedy takes the discard top when it makes the hand's
*cover* larger (``pattern_cover``: the most cards the pattern's runs, placed on same-suit
windows anywhere in the pack, can hold, and the cards of the documented best placement); it
goes out whenever its hand less one allowed card (the lowest-valued; ties: the higher kind)
is exactly one run of 4 and two of 3, each of one suit (``tests.oracles.patterns.fits``), the
runs going down suit by suit from the lowest position (``pattern_runs``), then that discard
(``went_out``); else it discards, of the allowed cards outside the cover (all when none is),
the one with the fewest same-suit neighbours (``connections``), ties to the higher value, then
the higher kind; once the stock was rebuilt this hand, one discard in 8 (the bots' stream) is
a uniform allowed card of the cover instead. The hand scores ``pip_to_winner`` like any
other, and the turn cap ends it ``stalled``. Random takes the discard top on a coin, goes
out on a coin when it can, and discards a uniform card of the same pool (no deadlock
breaker).

Continental (RULES.md §3.11, §2J, §2B.14, ``go_out_pattern = "continental"``; docs/variants.md
"Continental", greedy as docs/bots.md "Fixed patterns with wild cards: Continental" states it):
15 cards each from 2-4 packs with one joker a pack (``jokers_by_players``), an upcard. A
player who has drawn nothing yet and whose 15 cards fit goes out at the start of his turn,
before drawing, with no discard. Greedy takes a joker (under ``deuces_wild`` a 2) always, a
natural card when it makes the *cover* larger (``wild_cover``: the best ``pattern_cover`` of
the hand's kinds over the three patterns, plus the wild cards held, at most 15); after the
draw it goes out with the lowest allowed kind whose discard leaves 15 cards in runs of
5+4+3+3, 4+4+4+3 or 3+3+3+3+3 (under deuces wild a kind other than a 2 when one does), the
runs going down as ``wild_search`` finds and fills them (``E_MELD`` b = the wild 2s' places),
then that discard; else it discards as under Nowrang, a kind held twice outside the cover and
every 2 inside it under deuces wild. Each other player pays the winner 1, 2 a joker and 1 a
wild 2 in his runs, and the §2J bonuses that are on (``continental_pay``); the hand's scores
are that zero-sum payment. The stock turns over or is shuffled as the file says. Random
takes on a coin, goes out on a coin when it fits (the quick out before the first draw is
every bot's) and discards a uniform card of greedy's pool, as under Nowrang.

The knock family (RULES.md §3.10 ``knock_rummy``, §3.17 ``gin``, §3.18 3-player gin, §3.19
4-player gin in partnerships, §3.20 Oklahoma, §2I; greedy, simple and random as docs/bots.md
"The knock family" states them): one pack, the ace low, runs of one
suit, an upcard; nothing is melded during play. Gin's opening (``upcard_offer``): the
non-dealer, then the dealer, may take the upcard, each who lets it go spending a turn
(``E_DECLINE_UPCARD``); the one who takes it plays that turn; if both let it go the
non-dealer draws from the stock. A turn: the offered card (greedy takes it when its deadwood
after its best discard then, never that card, is lower than now; ``knock_wants``) or the
stock; then the discard (``knock_discard``: the highest-valued card outside the hand's best
arrangement, never the card just taken, among equal values one in no partial meld, then the
higher kind; with none outside the card leaving the least deadwood, ties the higher kind)
and the knock (``E_KNOCK``, a = the deadwood left) as soon as that deadwood is within the
limit: ``knock_limit``, Oklahoma's upcard value (an ace: 0, gin only), 10 where there is
none (greedy's own). A turn that leaves at most two stock cards without a knock voids a gin
hand (``void``, no score); knock rummy turns its pile over. After a knock, the showdown:
the knocker lays his best arrangement down (``E_MELD``) and shows his deadwood (``E_SHOW``,
a = it); each other player from his left, under ``layoff_target = any`` and unless the
knocker went gin, first lays off on the knocker's melds (``E_LAYOFF``) the set of cards that
leaves him the least deadwood (any set that some order of lay-offs places, found by brute
force; ties: the fewest cards, then the smallest as a mask), in the order of passes, lowest
kind first, each card on the first run that takes it, else the first group; then he shows
his deadwood and the cards he laid off. Scores: gin (``knock``, ``gin``, ``undercut`` with
the gin and undercut bonuses, the spade double and Oklahoma's side bonuses, ``side``) and
knock rummy (the differences, rum +25 from each opponent, the knocker's 10 when beaten,
tied winners splitting floor; the knocker winning at 0 is ``gin``, an opponent winning is
``undercut``). Simple takes the offered card when it is in the best arrangement of the hand
with it or when its discard then (``knock_discard`` without the partial-meld tie-break) leaves
it within its limit, discards so and knocks when within it; random takes on a coin (the bots'
stream), discards a uniform allowed card (kind order) and, within the hand's limit (any count
where there is none), knocks on a coin. 3-player gin (``loser_sits_out``): the dealer sits
the hand out, passed by the deal, the turns and the showdown. 4-player gin:
``PartnershipHand``, two 2-player hands and the team score. ``careful`` raises
``NotImplementedError`` here.

Carousel (RULES.md §3.16, §2M, family ``carousel``; docs/variants.md "Carousel", the bots as
docs/bots.md "Carousel: meld actions and the knock" states them): 10 cards each, no upcard
and no discard pile, the ace high or low. A turn draws a stock card (``E_DRAW_STOCK``, b = 1
after the first) and asks for a meld action, which ends the turn; else a second card and the
question again; else a third card and no question. A draw with the stock empty is skipped
(no question after it); after a question with no action (and no capped search) the next
asks only for actions playing the card just drawn (the same answer: any other existed
before). greedy and careful: the hand's best arrangement (``tests.oracles.arrangement``)
and, on each table meld in order that a natural card left fits, the most valuable such card
(ties: the lowest kind), one a meld, at most 15 (the cheap answer); when it plays the whole
hand value it is played, else the table search's re-partition when one plays more, else the
cheap answer, else nothing. random: uniform (bots' stream) among each meld of the best
arrangement, each natural kind held that fits a table meld (laid off on the first) and the
table search's re-partition (asked to beat nothing), when any. A re-partition
(``E_REARRANGE``, a = the melds taken up, b = the hand cards played, the natural ones by
layer): the table's melds go into the hand and the new melds go down (``E_MELD`` from row
0), each kept table joker back as a joker in the first new meld holding its card (a group's
declared again, ``E_DECLARE``), the other jokers declared by the bot (greedy the lowest
card, careful the one with the fewest unseen copies, random uniform). Which re-partition
(docs/bots.md, "Which re-partition, among equally good ones"): of those that play the most
(more than asked), the first in the engine's declared order (``sim.engine.repartition``'s
docstring: the table jokers' kept/freed choice, then the cards decided from the lowest kind
up, each into its melds from the largest key down or left in hand), found by the oracle's
own brute force (``tests.oracles.repartition.best_repartition``); the engine's table
search, given as ``table_search`` (it imports the engine; the oracle does not), must have
chosen the same melds in the same order and freed the same jokers. Where that search
reached its frame cap or cut a card's candidates short, it returns the best it found, not
the declared one, and the oracle plays the engine's answer, checked: more than asked and
at most the hand cards in some meld of the whole pool. Always legal melds, every table
card melded again, jokers kept or freed as §3.16 says, the played value exact. A brute
force over ``SEARCH_BUDGET`` positions stops the hand (``stopped = "large"``; any other
failed check stops it with the reason). After the turn: an
empty hand went out (``went_out``); in a final turn nothing more; else with 5 points or
less (``knock_limit``) the bot may knock (``E_KNOCK``, a = the points: greedy always,
careful when every opponent holds more cards, random on 1 in 2); a turn that ends with the
stock empty and no knock starts the final turns (``E_FINAL``, a = the turns left), one each
from the next player, the last ending the round (``stock_out``). Scores:
``tests.oracles.carousel`` (``knock``, or ``undercut`` when the knocker did not win; the
winner -1 when several won).

``play_direction`` (§2K.46) in every family the oracle plays: counterclockwise the next
seat is ``seat - 1`` (the deal, the turns, Call Rummy's callers, Phỏm's first player, the
player before); the engine's hands table gives the dealer.

Jokers (progressive rummy; RULES.md §2A.2-3, §2B.10-12, sim/engine/table.py's docstring):
``jokers`` in the shoe after the natural cards, a joker left in hand worth
``joker_points``; greedy takes a joker discard top (and, under the joker limit, a card only
when a meld within the limit holds it, as docs/bots.md says), melds
jokers in its arrangement (the brute force's, under ``joker_limit =
not_more_than_naturals`` no meld with more jokers than natural cards, an opening joker at
the value of the card it stands for), lays off a joker when no natural card goes, on the
first meld that takes one (a group of fewer than 4 cards, any group under
``group_duplicates = allowed``; a run with a free end, above its last position when there
is one, else below its first; under the joker limit not where it would hold more jokers
than natural cards), discards a joker last and may always end a turn with a joker it did
not take from the discard pile. Under Call Rummy a called joker goes on the first meld that
takes one. ``joker_declare`` (§2B.11): under ``three_card_group`` each joker of a group of
three laid down, under ``always`` each joker of a group (one per card of its rank) and of
an any-suit run (one per rank) is declared (``E_DECLARE``) as the lowest card it may be: of
its rank, held by no other joker of it nor, but under duplicates allowed, by a natural card
of the group; a natural card a group's joker was declared as may not be laid off on it.
``joker_replace`` (§2B.12): greedy replaces a table joker by the natural card it stands for
(a run of one suit's joker: its position's card; an any-suit run's: as declared; a group's:
as declared, or the one suit a full 4-card group lacks), its lowest such card first, on the
lowest meld row, never its planned discard, again and again (``E_STEAL``); the joker goes
to its hand and is played like any card. Under ``steal_by_replacement`` after laying down
and before laying off, whatever the lay-off rules and the initial meld; under ``to_hand``
(Caloochi) before laying anything down this turn; under ``reuse_same_turn`` (German) after
laying down, once the player has made his initial meld, and only when a meld he may lay
off on takes a joker and the turn could still end without the natural card: the joker is
then laid off at once on the first meld that takes one. A replacement counts as playing a card
(no rummy afterwards) and spends the rule on the card taken from the discard pile when it
is that card. Anything else raises ``NotImplementedError`` (jokers and duplicates under
``all_at_once`` outside Continental, ``joker_slide``).

An event is a tuple ``(type, seat, a, b, cards)`` in the terms of the engine's event rows
(``EV_TYPE, EV_SEAT, EV_A, EV_B`` and the ``EV_N`` cards as a tuple):

- ``E_DEAL``: every seat in seat order after the deal, its cards in kind order;
- ``E_UPCARD``: seat -1, a = the card;
- ``E_DRAW_STOCK``, ``E_DRAW_DISCARD``, ``E_DISCARD``: a = the card (the draws: b = 1 for
  ``top_plus_one``'s second card of the turn);
- ``E_REBUILD``: a = the new stock's size, b = the new discard top;
- ``E_MELD``: a = the meld's table index, its natural cards in kind order (one copy of each
  kind, then the second copies), then its jokers;
- ``E_LAYOFF``: a = the meld's table index, b = the card (``JOKER`` for a joker);
- ``E_DECLARE``: a = the meld's table index, b = the natural card a joker is declared as;
- ``E_STEAL``: a = the meld's table index, b = the natural card put in a joker's place;
- ``E_SLIDE``: a = the meld's table index, b = the natural card laid off in the place of an
  end joker of a run, the joker moving beyond the other end (§2B.13);
- ``E_BORROW``: a = the table index of the meld a card is borrowed from, b = the card (then
  the ``E_MELD`` of the new meld that holds it, §2D.22);
- ``E_BLOCK``: a = the discard top declined with the stock empty;
- ``E_CALL``: seat = the caller, a = the called card, b = its discarder (then the caller's
  ``E_LAYOFF`` and ``E_DISCARD``);
- Conquian's ``E_EXPOSE``, ``E_REJECT``, ``E_PASS``: a = the card; ``E_FORCE``: seat = the
  forcer, a = the card, b = the forced player; ``E_USE``: a = the card, b = 1 when it was on
  offer; ``E_REFORM``: a = how many melds were taken up, their cards in kind order;
- ``E_END``: seat = the winner (-1: none; a Phỏm showdown's: its first), a = the end
  reason.

Greedy as ``sim/engine/greedy.py`` and docs/bots.md state it, with the turn's legality of
``sim/engine/legal.py``: the card taken from the discard pile may not be discarded unless
another copy of it is held (several packs; under ``top_plus_one`` a kind taken twice this
turn is kept), and playing it or a copy to the table spends that rule; a card drawn from
the stock whose kind the player already drew from the stock since the table last changed
has *come round* and is kept while another card may go. Under ``any_card`` greedy takes,
of the area's cards its take-test accepts, the highest-valued (ties: the higher kind, then
the one thrown last), else the stock. Under ``top_plus_one`` it takes the discard top only
when at least three cards are left between the stock and the discard pile, and then when
its take-test accepts it, or when the stock was rebuilt this hand and is not empty, some
player drew that kind from the stock since the table last changed and it joins a partial
meld of the hand; its second card is the next discard when its take-test accepts it (or
the stock is empty), else the stock's next card.

Random in progressive rummy (every file greedy plays but Tonk, Phỏm, Conquian, the knock
family, Nowrang and Continental; docs/bots.md "random", sim/engine/random_bot.py's
docstring), from the bots' stream of the deal, one ``below`` a choice. Its take of the
discard top, its call (asked only when it may call) and its second card under
``top_plus_one`` are fair coins (under ``top_plus_one`` asked only when three cards are
left, as greedy's); under ``any_card`` a coin, then the card's place among the area's
cards in the order they were thrown; under ``only_for_initial_meld`` before its initial
meld the coin is tossed only when greedy's arrangement with the card makes it and melds
the card. Its table play, again and again while it holds a card: every legal action is
listed and one number ``below(n + 1)`` picks one of the ``n`` actions or stopping (the
last), a number drawn even when stopping is all it may do; ``below(n)`` when it may not
stop (the discard taken for the initial meld not yet melded, a joker taken back under
``reuse_same_turn`` still owed), nothing when then nothing is legal. The actions in
order: new melds (when one may be laid down now; not while a joker is owed): for each
natural kind held, lowest first, the melds of the hand that hold it in the engine's
listing order (by key, ``tests.oracles.arrangement``: groups by their counts per suit,
spades first, then jokers; runs by window, then by what stands on each position), at most
``MAX_CAND`` a card, those whose lowest natural card it is and that leave the turn able to
end (a card that may go, a joker beside the taken and owed ones, or an empty hand where
going out without a discard is allowed), and before the initial meld only a meld that makes
it alone or with greedy's arrangement of the rest (laid down with it; with one meld a turn
alone); then lay-offs: for each natural kind held, lowest first, that leaves the turn able
to end, each table meld it fits and he may lay off on, first laid first (a slide is one);
then, when a joker may go to the table and the turn still end, each meld that takes a
joker and he may lay off on; then (not while owing) the replacements of ``joker_replace``
(``to_hand``: before anything is laid down or off this turn; ``reuse_same_turn``: once
opened, only a card after which the joker could go back, the joker then owed): for each
table meld each natural kind held that one of its jokers stands for, lowest first; then
(``borrowing``, once a turn, when a meld may be laid down and he has opened) for each
table meld each card it lends, lowest first, every meld through that card with cards of
his hand (the listing order, at most ``MAX_CAND``, not only those it is lowest in) that
leaves the turn able to end. A joker to be declared is declared as a uniform one of its
options in kind order. The discard: a uniform allowed natural kind in kind order, then
the joker when one may go. Under all at once: the coin to take; going out, whenever the
hand can, on a coin (drawn only then), else a uniform allowed card outside the best
arrangement (all allowed cards when none is outside); the arrangement there is
``memo_arrangement``'s, the declared one found by a memoized recursion (random's hands
grow large).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections import Counter
from dataclasses import dataclass, field

from sim.cards import JOKER, N_NATURAL, N_RANKS, N_SUITS, cards_text, rank_of, suit_of
from sim.rules.model import Rules
from sim.rules.values import card_values
from tests.oracles import arrangement as arr
from tests.oracles import carousel as car
from tests.oracles import patterns as pat
from tests.oracles import repartition as rep

# ---- random streams (sim/engine/rng.py) ------------------------------------------------------
MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
STREAM_DEAL = 1
STREAM_BOTS = 2
STREAM_GAME = 3


def mix64(z: int) -> int:
    z &= MASK64
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return z ^ (z >> 31)


def stream_seed(seed: int, shard: int, deal: int, purpose: int) -> int:
    z = mix64((seed + GOLDEN) & MASK64)
    z = mix64(z ^ ((shard * GOLDEN) & MASK64))
    z = mix64(z ^ ((deal + 0x632BE59BD9B4E019) & MASK64))
    return mix64(z ^ ((purpose * 0xD1B54A32D192ED03) & MASK64))


class Stream:
    """One splitmix64 stream."""

    def __init__(self, state: int) -> None:
        self.state = state & MASK64

    def below(self, n: int) -> int:
        """A uniform integer in [0, n): multiply-shift on the upper 32 bits."""
        self.state = (self.state + GOLDEN) & MASK64
        return ((mix64(self.state) >> 32) * n) >> 32


def first_dealer(seed: int, shard: int, game: int, players: int) -> int:
    """A game's first dealer (before the runner's seat rotation)."""
    return Stream(stream_seed(seed, shard, game, STREAM_GAME)).below(players)


# ---- events and end reasons (sim/engine/state.py, sim/engine/rows.py) -----------------------
E_DEAL, E_UPCARD, E_DRAW_STOCK, E_DRAW_DISCARD, E_REBUILD = 0, 1, 2, 3, 4
E_MELD, E_LAYOFF, E_DISCARD, E_END, E_SCORE = 5, 6, 7, 8, 9
E_KNOCK, E_SHOW, E_DECLINE_UPCARD, E_TABLE, E_TEAMS = 10, 11, 12, 13, 14
E_BLOCK = 15
E_DECLARE, E_STEAL, E_CALL, E_SLIDE, E_BORROW = 16, 17, 18, 19, 20
E_TONK, E_DROP = 21, 22
E_EXPOSE, E_REJECT, E_PASS, E_FORCE, E_REFORM, E_USE = 23, 24, 25, 26, 27, 28
E_REARRANGE, E_FINAL = 29, 30
EVENT_NAMES = dict(
    enumerate(
        (
            "deal",
            "upcard",
            "draw_stock",
            "draw_discard",
            "rebuild",
            "meld",
            "layoff",
            "discard",
            "end",
            "score",
        )
    )
)
EVENT_NAMES[E_BLOCK] = "block"
EVENT_NAMES.update({E_KNOCK: "knock", E_SHOW: "show", E_DECLINE_UPCARD: "decline_upcard"})
EVENT_NAMES.update({E_TABLE: "table", E_TEAMS: "teams"})
EVENT_NAMES[E_CALL] = "call"
EVENT_NAMES[E_DECLARE] = "declare"
EVENT_NAMES[E_STEAL] = "steal"
EVENT_NAMES[E_SLIDE] = "slide"
EVENT_NAMES[E_BORROW] = "borrow"
EVENT_NAMES[E_TONK] = "tonk"
EVENT_NAMES[E_DROP] = "drop"
EVENT_NAMES.update({E_EXPOSE: "expose", E_REJECT: "reject", E_PASS: "pass", E_FORCE: "force"})
EVENT_NAMES.update({E_REFORM: "reform", E_USE: "use"})
EVENT_NAMES.update({E_REARRANGE: "rearrange", E_FINAL: "final"})
WENT_OUT, WENT_RUMMY, BLOCK, STALLED, EXHAUSTED = 0, 1, 2, 3, 4
KNOCK, GIN, UNDERCUT, VOID = 5, 6, 7, 8
TONK, DROP, CAUGHT, STOCK_OUT, REDEAL = 9, 10, 11, 12, 13
WENT_U, SHOWDOWN = 14, 15
REASONS = {WENT_OUT: "went_out", WENT_RUMMY: "went_rummy", STALLED: "stalled"}
REASONS.update({TONK: "tonk", DROP: "drop", CAUGHT: "caught", STOCK_OUT: "stock_out"})
REASONS[REDEAL] = "redeal"
REASONS[EXHAUSTED] = "exhausted"
REASONS.update({KNOCK: "knock", GIN: "gin", UNDERCUT: "undercut", VOID: "void"})
REASONS[BLOCK] = "block"
REASONS[WENT_U] = "went_u"
REASONS[SHOWDOWN] = "showdown"
BLOCK_RULES = ("block_difference", "block_totals")
STOCK_RULES = (
    "turn_over",
    "shuffle_except_top",
    "shuffle_all",
    *BLOCK_RULES,
    "drawn_hand_carry",
    "void_at_two",
    "final_turns",
)
DRAW_RULES = ("top", "any_card", "top_plus_one")
REPLACE_RULES = ("none", "steal_by_replacement", "to_hand", "reuse_same_turn")
BOTS = ("greedy", "careful", "random", "simple")
MAX_CAND = 256  # melds the engine lists through one card (sim/engine/melds.py), the rest cut
PATTERNS = {"none": (), "runs_4_3_3": (4, 3, 3)}  # go_out_pattern: its runs' lengths, in order
SCORINGS = (
    "pip_to_winner",
    "per_card",
    "penalty",
    "unmelded_to_winner",
    "own_melds_from_each",
    "continental",
)

Event = tuple[int, int, int, int, tuple[int, ...]]


# ---- the rules this oracle reads ------------------------------------------------------------
@dataclass(frozen=True)
class Table:
    """The settings of one variant at one table size that the hand reads."""

    players: int
    hand_size: int
    packs: int
    values: tuple[int, ...]
    meld_rules: arr.Rules
    upcard: bool
    meld_limit: int  # 0: any number of melds a turn
    must_discard: bool
    going_rummy: bool
    going_rummy_bonus: int | None  # None: going rummy doubles
    scoring: str
    stock_exhaustion: str
    discard_draw: str
    turn_cap: int
    call_rummy: bool
    layoff_requires_meld: str
    all_at_once: bool = False
    initial_meld_min: int = 0
    only_for_initial: bool = False  # discard_before_initial_meld = only_for_initial_meld
    opening_ace_low: int | None = None  # None: an ace low in a run counts its value
    jokers: int = 0  # in the shoe
    joker_declare: str = "inferred"  # §2B.11
    joker_replace: str = "none"  # §2B.12: none, steal_by_replacement, to_hand, reuse_same_turn
    joker_slide: bool = False  # §2B.13
    slide_repeat: bool = False  # joker_slide_repeat: a joker may slide again (§3.9 point 2)
    borrowing: str = "off"  # §2D.22: off, own, any
    # Tonk (§3.22, §2L): chips, instant tonks, the drop, the stock-out, the table options
    tonk: bool = False
    tonk_instant: str = "49_50"
    super_tonk: bool = False
    flat_out: bool = False
    drop_penalty: str = "two_to_each_le"
    stock_redeal: bool = False
    no_fourth: bool = False
    one_layoff: bool = False
    layoff_skips_discard: bool = False
    stock_card_must_play: bool = False
    meld_at_once: bool = False  # tonk_meld_immediately (§2L.49): random's melds first
    # play_direction (§2K.46): the next seat is seat + direction
    direction: int = 1
    # Phỏm (§3.13, §2K.43-45): its turn flow, lay-offs and chip options
    phom: bool = False
    layoff_others: bool = True
    taken_penalty: bool = False
    three_taken: bool = False
    # Conquian (§3.21): its turn flow; rearrange = own (else none)
    conquian: bool = False
    rearrange_own: bool = False
    # the rummy family with upcard off (Nowrang, §3.15): the first player is dealt one card
    # more, no upcard, and his first turn has no draw
    eleven: bool = False
    # a fixed go-out pattern (go_out_pattern, Nowrang §3.15): its run lengths, () for none
    pattern: tuple[int, ...] = ()
    # Continental's pattern set (go_out_pattern = continental, §3.11): its alternatives (()
    # for none), 2s wild (§2B.14) and the §2J bonuses of its payment
    alternatives: tuple[tuple[int, ...], ...] = ()
    deuces: bool = False
    quick_bonus: bool = False
    special_bonus: bool = False
    # the knock family (§3.10, §3.17, §3.20, §2I): "gin", "knock_rummy" or "" (none); the
    # knock limit (None: unlimited, -1: the upcard's value), the bonuses, the lay-offs
    knock: str = ""
    knock_limit: int | None = None
    gin_bonus: int = 20
    undercut_bonus: int = 10
    spade_double: bool = False
    oklahoma_extra: bool = False
    defender_lays_off: bool = False  # layoff_target = any: on the knocker's melds
    sits_out: bool = False  # dealer_rotation = loser_sits_out: the dealer sits out (§3.18)
    partnership: bool = False  # 4-player gin: two 2-player tables, team scores (§3.19)
    # Carousel (§3.16, §2M): its turn flow, the table re-formed, the knock, the final turns
    carousel: bool = False

    @property
    def progressive_family(self) -> bool:
        """Progressive rummy (or all at once) without a family's own turn flow or a fixed
        go-out pattern: where the oracle plays ``random`` beside ``greedy``."""
        own = self.tonk or self.phom or self.conquian or self.knock or self.eleven
        return not (own or self.pattern or self.alternatives)

    @classmethod
    def of(cls, rules: Rules, players: int) -> Table:
        """The rules this oracle plays, read; anything else raises NotImplementedError."""
        hand_size, packs = rules.deal_for(players)
        knock = rules.family in KNOCK_FAMILIES
        carousel = rules.family == "carousel"
        unsupported = {
            "meld_timing": rules.meld_timing not in ("progressive", "all_at_once")
            and not (rules.family == "phom" and rules.meld_timing == "phom_final")
            and not (knock and rules.meld_timing == "knock"),
            "jokers": rules.jokers_for(players) != 0
            and rules.meld_timing != "progressive"
            and rules.values["go_out_pattern"] != "continental",
            "joker_replace": rules.values["joker_replace"] not in REPLACE_RULES,
            "deuces_wild": bool(rules.values["deuces_wild"])
            and rules.values["go_out_pattern"] != "continental",
            "melds_per_turn": rules.melds_per_turn not in ("unlimited", "one"),
            "layoff_target": rules.layoff_target != "any"
            and rules.meld_timing == "progressive"
            and rules.family != "conquian",
            "group_duplicates": rules.group_duplicates != "forbidden"
            and rules.meld_timing != "progressive",
            "discard_draw": rules.discard_draw not in DRAW_RULES,
            "stock_exhaustion": rules.stock_exhaustion not in STOCK_RULES,
            "scoring": rules.scoring not in SCORINGS,
            "family": rules.family
            not in ("rummy", "tonk", "phom", "conquian", "carousel", *KNOCK_FAMILIES),
            # gin for 3 (§3.18, a seat sitting out) and 4 (§3.19, two tables) not yet
            "players": rules.family == "gin"
            and players != 2
            and not (players == 3 and rules.dealer_rotation == "loser_sits_out")
            and players != 4,
            "gin_opening": rules.family == "gin" and rules.values["gin_opening"] != "upcard_offer",
            # the knock family with runs of any suit or the ace high: not yet
            "run_suit": knock and rules.run_suit != "same_suit",
            "ace_rank": knock and rules.ace_rank != "low",
            "rearrange": rules.values["rearrange"] not in ("none", "own")
            and not (carousel and rules.values["rearrange"] == "table"),
            "tonk_wait": rules.family == "tonk" and rules.values["tonk_wait"] != "off",
            "go_out_pattern": rules.values["go_out_pattern"] not in (*PATTERNS, "continental")
            or (rules.values["go_out_pattern"] != "none" and rules.strip_8_9_10),
        }
        refused = [name for name, bad in unsupported.items() if bad]
        if refused:
            raise NotImplementedError(f"the oracle hand does not play {refused}")
        return cls(
            players=players,
            hand_size=hand_size,
            packs=packs,
            values=tuple(int(v) for v in card_values(rules)),
            meld_rules=arr.Rules(
                ace_rank=rules.ace_rank,
                any_suit=rules.run_suit == "any_suit",
                group_duplicates=rules.group_duplicates == "allowed",
                joker_limit=rules.values["joker_limit"] == "not_more_than_naturals",
                strip=rules.strip_8_9_10,
                run_max=int(rules.values["run_max"]),
            ),
            upcard=bool(rules.upcard),
            meld_limit=0 if rules.melds_per_turn == "unlimited" else 1,
            must_discard=bool(rules.must_discard_to_go_out),
            going_rummy=rules.going_rummy != "off",
            going_rummy_bonus=rummy_bonus(rules.going_rummy),
            scoring=rules.scoring,
            stock_exhaustion=rules.stock_exhaustion,
            discard_draw=rules.discard_draw,
            turn_cap=int(rules.turn_cap),
            call_rummy=bool(rules.call_rummy),
            layoff_requires_meld=rules.layoff_requires_meld,
            all_at_once=rules.meld_timing == "all_at_once",
            initial_meld_min=int(rules.values["initial_meld_min"]),
            only_for_initial=rules.values["discard_before_initial_meld"] == "only_for_initial_meld",
            opening_ace_low=None if rules.values["opening_ace_low"] == "ace_points" else 1,
            jokers=int(rules.jokers_for(players)),
            joker_declare=rules.values["joker_declare"],
            joker_replace=rules.values["joker_replace"],
            joker_slide=bool(rules.values["joker_slide"]),
            slide_repeat=bool(rules.values["joker_slide_repeat"]),
            borrowing=rules.values["borrowing"],
            tonk=rules.family == "tonk",
            tonk_instant=str(rules.values["tonk_instant"]),
            super_tonk=rules.values["tonk_super"] == "le9",
            flat_out=bool(rules.values["tonk_flat_out_payment"]),
            drop_penalty=rules.values["tonk_drop_penalty"],
            stock_redeal=rules.values["tonk_stock_out"] == "redeal",
            no_fourth=bool(rules.values["tonk_no_fourth_in_group"]),
            one_layoff=bool(rules.values["tonk_one_layoff_per_turn"]),
            layoff_skips_discard=bool(rules.values["tonk_layoff_skips_discard"]),
            stock_card_must_play=bool(rules.values["tonk_stock_card_must_play"]),
            meld_at_once=bool(rules.values["tonk_meld_immediately"]),
            direction=-1 if rules.values["play_direction"] == "counterclockwise" else 1,
            phom=rules.family == "phom",
            layoff_others=bool(rules.values["phom_layoff_others"]),
            taken_penalty=bool(rules.values["phom_discard_taken_penalty"]),
            three_taken=bool(rules.values["phom_three_taken_liability"]),
            conquian=rules.family == "conquian",
            rearrange_own=rules.values["rearrange"] == "own",
            eleven=rules.family == "rummy" and not rules.upcard,
            pattern=PATTERNS.get(rules.values["go_out_pattern"], ()),
            alternatives=CONTINENTAL if rules.values["go_out_pattern"] == "continental" else (),
            deuces=bool(rules.values["deuces_wild"]),
            quick_bonus=bool(rules.values["continental_quick_bonus"]),
            special_bonus=bool(rules.values["continental_special_bonus"]),
            knock=rules.family if knock else "",
            knock_limit=knock_limit(rules.values["knock_limit"]),
            carousel=carousel,
            gin_bonus=int(rules.values["gin_bonus"]),
            undercut_bonus=int(rules.values["undercut_bonus"]),
            spade_double=bool(rules.values["spade_double"]),
            oklahoma_extra=bool(rules.values["oklahoma_extra_bonus"]),
            defender_lays_off=rules.layoff_target == "any",
            sits_out=rules.dealer_rotation == "loser_sits_out",
            partnership=rules.family == "gin" and players == 4,
        )


KNOCK_FAMILIES = ("gin", "knock_rummy")


def knock_limit(word) -> int | None:
    """``knock_limit`` (§2I.32): None for ``unlimited``, -1 for ``upcard``, else the number."""
    if word == "unlimited":
        return None
    if word == "upcard":
        return -1
    return int(word)


def rummy_bonus(going_rummy: str) -> int | None:
    """The points going rummy adds (None: it doubles the score, or it is off)."""
    if going_rummy in ("off", "double"):
        return None
    return int(going_rummy.split(":")[1])  # "bonus:N"


# ---- run positions (sim/engine/melds.py docstring) ------------------------------------------
def position_ranks(ace_rank: str) -> list[int]:
    """The rank on each run position (around the corner they wrap, 13 of them)."""
    return arr.positions(ace_rank)


def window_ok(ace_rank: str, lo: int, length: int) -> bool:
    if length < 3 or length > N_RANKS:
        return False
    if ace_rank == "around_corner":
        return True
    return lo >= 0 and lo + length <= len(position_ranks(ace_rank))


def rank_at(ace_rank: str, pos: int) -> int:
    ranks = position_ranks(ace_rank)
    return ranks[pos % N_RANKS] if ace_rank == "around_corner" else ranks[pos]


def positions_of(ace_rank: str, rank: int) -> list[int]:
    return [p for p, r in enumerate(position_ranks(ace_rank)) if r == rank]


def run_distance(ace_rank: str, a: int, b: int) -> int:
    """How many run positions apart ranks ``a`` and ``b`` are (the nearest pair)."""
    best = 99
    for pa in positions_of(ace_rank, a):
        for pb in positions_of(ace_rank, b):
            d = abs(pa - pb)
            if ace_rank == "around_corner":
                d = min(d, N_RANKS - d)
            best = min(best, d)
    return best


# ---- a fixed go-out pattern (Nowrang §3.15; docs/bots.md, "Fixed patterns: Nowrang") ---------
SEARCH_BUDGET = 50_000  # Carousel: positions the brute force of a table search may visit
BREAK_ODDS = 8  # every bot: once the stock was rebuilt, 1 discard in 8 breaks a deadlock


def pattern_shares(lengths: tuple[int, ...]) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
    """The pattern's distinct lengths (in the order they first appear: Nowrang's 4, then 3)
    and every share of its runs one suit may hold, as a count per distinct length, in the
    documented order (Nowrang's: none, the 4, one 3, the 4 and one 3, two 3s, all three:
    by the count of the last distinct length first)."""
    distinct = tuple(dict.fromkeys(lengths))
    counts = [lengths.count(n) for n in distinct]
    shares = list(itertools.product(*(range(c + 1) for c in counts)))
    return distinct, sorted(shares, key=lambda d: d[::-1])


@functools.cache
def suit_placements(n_pos: int, share: tuple[int, ...], distinct: tuple[int, ...]) -> list:
    """Every placement of a share of runs on one suit's ``n_pos`` positions, not
    overlapping: lists of (first position, length)."""
    out = []

    def place(lo: int, left: tuple[int, ...], runs: list) -> None:
        if not any(left):
            out.append(tuple(runs))
            return
        for start in range(lo, n_pos):
            for j, n in enumerate(distinct):
                if left[j] and start + n <= n_pos:
                    rest = left[:j] + (left[j] - 1,) + left[j + 1 :]
                    place(start + n, rest, [*runs, (start, n)])

    place(0, share, [])
    return list(dict.fromkeys(tuple(sorted(r)) for r in out))


@functools.cache
def suit_cover(
    col: frozenset[int], n_pos: int, share: tuple[int, ...], distinct: tuple[int, ...]
) -> tuple[int, frozenset[int]]:
    """The best placement of ``share`` in one suit whose cards stand on positions ``col``:
    (cards held, their positions). The most cards; ties: compare the runs from the highest
    down, the first that differs decides: the one ending lower, then (ending at the same
    position) the longer (the distinct lengths' order)."""
    best = None
    for runs in suit_placements(n_pos, share, distinct):
        held = frozenset(p for lo, n in runs for p in range(lo, lo + n) if p in col)
        order = tuple(
            sorted(((lo + n - 1, distinct.index(n)) for lo, n in runs), key=lambda r: -r[0])
        )
        key = (-len(held), order)
        if best is None or key < best[0]:
            best = (key, held)
    if best is None:  # the share does not fit in one suit (Continental's 5+4+3+3)
        return -1, frozenset()
    return len(best[1]), best[1]


@functools.lru_cache(maxsize=1 << 16)
def suit_covers(
    col: frozenset[int], n_pos: int, shares: tuple[tuple[int, ...], ...], distinct: tuple[int, ...]
) -> list[tuple[int, frozenset[int]]]:
    """``suit_cover`` of every share at once, by a sweep over the positions: the best
    placement of a share on the positions below ``i + 1`` is the one below ``i`` (its runs
    all end lower), else, in the order of the distinct lengths, a run ending on ``i`` above
    the best placement of the rest below its first position, when it holds strictly more.
    The same choice as ``suit_cover``'s (``test_the_oracle_suit_cover_sweep``), faster."""
    index = {share: i for i, share in enumerate(shares)}
    prev: list = [(0, frozenset()) if not any(sh) else None for sh in shares]
    rows = [prev]
    for i in range(n_pos):
        row = []
        for share in shares:
            best = rows[i][index[share]]
            for j, n in enumerate(distinct):
                lo = i + 1 - n
                if lo < 0 or not share[j]:
                    continue
                rest = rows[lo][index[share[:j] + (share[j] - 1,) + share[j + 1 :]]]
                if rest is None:
                    continue
                window = frozenset(p for p in range(lo, i + 1) if p in col)
                if best is None or rest[0] + len(window) > best[0]:
                    best = (rest[0] + len(window), rest[1] | window)
            row.append(best)
        rows.append(row)
    return [(-1, frozenset()) if c is None else c for c in rows[n_pos]]


@functools.cache
def pattern_splits(lengths: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every way to share the pattern's runs between the suits: a share a suit, as its
    index in ``pattern_shares``."""
    distinct, shares = pattern_shares(lengths)
    full = tuple(lengths.count(n) for n in distinct)
    return [
        split
        for split in itertools.product(range(len(shares)), repeat=N_SUITS)
        if tuple(sum(shares[i][j] for i in split) for j in range(len(distinct))) == full
    ]


@functools.lru_cache(maxsize=1 << 14)
def pattern_cover(
    kinds: frozenset[int], lengths: tuple[int, ...], layout: str
) -> tuple[int, frozenset[int]]:
    """The hand's cover (docs/bots.md): how many of its cards the pattern's runs, placed on
    windows of one suit each (not overlapping within a suit) anywhere in the pack, can
    hold (counted by places: an ace high or low held at both ends counts twice), and the
    cards of the documented placement among the best: the runs shared
    between the suits with the last suit given the earliest share possible (the order of
    ``pattern_shares``), then the one before it, and so on; within each suit the runs as
    ``suit_cover`` places them."""
    ranks = arr.positions(layout)
    n_pos = len(ranks)
    distinct, shares = pattern_shares(lengths)
    covers = []
    for s in range(N_SUITS):  # every position of a card (an ace high or low: both ends)
        col = frozenset(
            p for k in kinds if suit_of(k) == s for p in positions_of(layout, rank_of(k))
        )
        covers.append(suit_covers(col, n_pos, tuple(shares), distinct))
    best = None
    for split in pattern_splits(lengths):
        if any(covers[s][i][0] < 0 for s, i in enumerate(split)):
            continue
        held = sum(covers[s][i][0] for s, i in enumerate(split))
        key = (-held, split[::-1])  # the last suit's share first
        if best is None or key < best[0]:
            best = (key, split)
    assert best is not None
    split = best[1]
    kept = frozenset(ranks[p] * N_SUITS + s for s, i in enumerate(split) for p in covers[s][i][1])
    return -best[0][0], kept  # positions held: an ace high or low may count at both ends


def pattern_runs(kinds: set[int], lengths: tuple[int, ...], layout: str) -> list[list[int]]:
    """The runs a hand that is exactly the pattern lays down (docs/variants.md "Nowrang"):
    suit by suit in kind order, each suit's stretches of consecutive positions from the
    lowest up, each stretch cut from its low end into the pattern's runs it holds in the
    pattern's order (a stretch of 7 in Nowrang: its 4 lowest cards, then 3)."""
    ranks = arr.positions(layout)
    runs = []
    for s in range(N_SUITS):
        col = sorted(ranks.index(rank_of(k)) for k in kinds if suit_of(k) == s)
        stretches: list[list[int]] = []
        for p in col:
            if stretches and stretches[-1][-1] == p - 1:
                stretches[-1].append(p)
            else:
                stretches.append([p])
        for stretch in stretches:
            cut = stretch_cuts(lengths, len(stretch))[0]
            at = 0
            for n in cut:
                runs.append([ranks[p] * N_SUITS + s for p in stretch[at : at + n]])
                at += n
    return runs


def stretch_cuts(lengths: tuple[int, ...], size: int) -> list[tuple[int, ...]]:
    """The pattern's runs (sub-multisets, in the pattern's order) that add up to ``size``.
    In Nowrang one stretch's are one multiset: 3, 4, 6 = 3 + 3, 7 = 4 + 3, 10 = 4 + 3 + 3."""
    cuts = (
        tuple(n for i, n in enumerate(lengths) if mask >> i & 1)
        for mask in range(1, 1 << len(lengths))
    )
    return [c for c in cuts if sum(c) == size]


def connections(kinds: set[int], kind: int, layout: str) -> int:
    """Greedy's count of ``kind``'s same-suit neighbours in ``kinds``: 2 for a card one run
    position above it, 2 for one below, 1 for one two positions above, 1 for one two below
    (docs/bots.md). An ace high or low stands on both ends: each of the four counts once
    when a card stands there from either of its places."""
    ranks = arr.positions(layout)
    own = positions_of(layout, rank_of(kind))
    near = {
        p
        for k in kinds
        if suit_of(k) == suit_of(kind) and k != kind
        for p in positions_of(layout, rank_of(k))
    }
    n = 0
    for step, weight in ((1, 2), (-1, 2), (2, 1), (-2, 1)):
        if any(0 <= p + step < len(ranks) and p + step in near for p in own):
            n += weight
    return n


# ---- Continental's pattern set with wild cards (§3.11, §2B.14; docs/bots.md "Fixed patterns
# with wild cards: Continental", docs/variants.md "Continental") -------------------------------
CONTINENTAL = ((5, 4, 3, 3), (4, 4, 4, 3), (3, 3, 3, 3, 3))  # in the order they are tried
DEUCE_RANK = 1
MAX_DISTINCT = 4  # the search's option codes: four distinct lengths a code


def wild_cover(
    kinds: frozenset[int], wilds: int, alternatives: tuple, layout: str
) -> tuple[int, frozenset[int]]:
    """The bots' cover under wild cards: the best ``pattern_cover`` of the hand's kinds over
    the alternatives (the first alternative of the most cards), plus the wild cards held, at
    most the pattern's card count; and that cover's kinds."""
    best, kept = -1, frozenset()
    for lengths in alternatives:
        size, cards = pattern_cover(frozenset(kinds), lengths, layout)
        if size > best:
            best, kept = size, cards
    return min(sum(alternatives[0]), best + wilds), kept


@dataclass
class WildRun:
    """A run ``wild_fit`` lays down: its suit and first position, its length, the natural
    kinds on it (wild 2s among them, in the order the meld event lists them), its jokers
    and its wild 2s' places (3 bits a place from its first up: the 2's suit + 1)."""

    suit: int
    lo: int
    length: int
    cards: list[int]
    jokers: int
    wild: int

    @property
    def deuces(self) -> int:
        return sum(1 for q in range(self.length) if self.wild >> (3 * q) & 7)


def alone_kinds(nat: Counter, wilds: int, layout: str, deuces: bool) -> set[int]:
    """With fewer than two wild cards, the natural kinds (wild 2s apart) that no run could
    hold: no other card of its suit within one run position (two with one wild card)."""
    if wilds >= 2:
        return set()
    kinds = {k for k in nat if not (deuces and rank_of(k) == DEUCE_RANK)}
    reach = 1 + wilds
    out = set()
    for k in kinds:
        own = positions_of(layout, rank_of(k))
        near = {
            p
            for o in kinds
            if o != k and suit_of(o) == suit_of(k)
            for p in positions_of(layout, rank_of(o))
        }
        if not any(0 < abs(q - p) <= reach for p in own for q in near):
            out.add(k)
    return out


def wild_search(
    nat: Counter, jokers: int, alternatives: tuple, layout: str, deuces: bool
) -> list[WildRun] | None:
    """Do the natural cards ``nat`` (a Counter of kinds, every copy) and ``jokers`` split into
    runs of one suit of exactly one alternative (tried in order)? The runs of the first split
    found (None: none), in the documented search order (docs/variants.md "Continental"):

    - a *trigger* is the lowest (suit, rank) of natural cards (not 2s under deuces wild) that
      the runs placed so far do not all cover (suit first, then rank, the ace lowest); a run
      is placed through it, trying its places (an ace: its low one, then its high one), then
      the alternative's distinct lengths in their order (5, 4, 3; 4, 3; 3), then the
      trigger's offset in the window from 0 (the run starting on it) up;
    - with nothing left to cover, the runs left go on windows holding some natural card of
      the window's suit (a 2 of that suit counts), by the code ``(suit * 16 + first position)
      * 4 + length index``, never below the previous such run's code (so no set is tried twice);
    - a path is cut when the wild places needed exceed the jokers and the 2s whose own place
      no run covers, or the runs left hold fewer cards than are uncovered; a whole placement
      fits when every natural card is covered, the wild places are exactly those wild cards,
      and the natural cards can be shared out so that every run holds one (Hall's condition).

    The runs then get, each, one natural card first: the first choice of one place a run
    (run 0's place changing fastest, from its first place up) that the cards allow; then, run
    by run and place by place from the first up, a natural card on each place while the
    cards last, jokers on the rest; under deuces wild the 2s standing on no place of their
    own take the first joker places instead, suit by suit (♠ first), run by run."""
    ranks = arr.positions(layout)
    have = [[0] * N_RANKS for _ in range(N_SUITS)]  # naturals per (suit, rank), 2s apart
    deu = [0] * N_SUITS  # wild 2s per suit (deuces wild)
    for k, n in nat.items():
        if deuces and rank_of(k) == DEUCE_RANK:
            deu[suit_of(k)] += n
        else:
            have[suit_of(k)][rank_of(k)] += n
    for lengths in alternatives:
        if sum(nat.values()) + jokers == sum(lengths):
            runs = search_alternative(have, deu, jokers, lengths, ranks, deuces)
            if runs is not None:
                return runs
    return None


def search_alternative(have, deu, jokers, lengths, ranks, deuces) -> list[WildRun] | None:
    """``wild_search`` of one alternative: ``have`` the natural cards per (suit, rank), 2s
    apart under deuces wild (``deu``: per suit). The counts (cards uncovered, wild places
    needed, wild 2s free) are kept up to date as runs are placed and taken back."""
    n_pos = len(ranks)
    distinct = tuple(dict.fromkeys(lengths))
    left = [lengths.count(n) for n in distinct]
    cov = [[0] * N_RANKS for _ in range(N_SUITS)]
    wild_cell = [[deuces and r == DEUCE_RANK for r in range(N_RANKS)] for _ in range(N_SUITS)]
    # d: the cards on a (suit, rank) less the runs over it (a wild 2 cell: its suit's 2s)
    d = [[deu[s] if wild_cell[s][r] else have[s][r] for r in range(N_RANKS)] for s in range(4)]
    cells = [(s, r) for s in range(N_SUITS) for r in range(N_RANKS) if d[s][r] > 0]
    naturals = [(s, r) for s, r in cells if not wild_cell[s][r]]  # the triggers, in order
    tally = [
        sum(d[s][r] for s, r in naturals),  # uncovered
        0,  # wild places needed
        sum(deu) if deuces else 0,  # wild 2s free
    ]
    spots = [[p for p in range(n_pos) if ranks[p] == r] for r in range(N_RANKS)]
    runs: list[tuple[int, int, int]] = []  # (suit, lo, length)

    def place(suit: int, lo: int, n: int, step: int) -> None:
        row, wild, c = d[suit], wild_cell[suit], cov[suit]
        for q in range(lo, lo + n):
            r = ranks[q]
            c[r] += step
            if step > 0:
                if row[r] > 0:
                    tally[2 if wild[r] else 0] -= 1
                else:
                    tally[1] += 1
                row[r] -= 1
            else:
                row[r] += 1
                if row[r] > 0:
                    tally[2 if wild[r] else 0] += 1
                else:
                    tally[1] -= 1

    def placed(s: int, r: int) -> int:
        h = have[s][r] + (deu[s] if wild_cell[s][r] else 0)
        return min(h, cov[s][r])

    def hall() -> bool:
        for mask in range(1, 1 << len(runs)):
            count: Counter = Counter()
            size = 0
            for i, (suit, lo, n) in enumerate(runs):
                if mask >> i & 1:
                    size += 1
                    for q in range(lo, lo + n):
                        count[suit, ranks[q]] += 1
            got = sum(min(c, placed(s, r)) for (s, r), c in count.items())
            if got < size:
                return False
        return True

    def has_natural(suit: int, lo: int, n: int) -> bool:
        for q in range(lo, lo + n):
            r = ranks[q]
            if have[suit][r] > 0 or (wild_cell[suit][r] and deu[suit] > 0):
                return True
        return False

    def try_run(s: int, lo: int, j: int, code: int) -> bool:
        n = distinct[j]
        left[j] -= 1
        place(s, lo, n, 1)
        runs.append((s, lo, n))
        if dfs(code):
            return True
        runs.pop()
        place(s, lo, n, -1)
        left[j] += 1
        return False

    def dfs(prev_code: int) -> bool:
        uncovered, need, free = tally
        cards_left = sum(c * n for c, n in zip(left, distinct, strict=True))
        if need > jokers + free or cards_left < uncovered:
            return False
        if not any(left):
            return uncovered == 0 and need == jokers + free and hall()
        trigger = next(((s, r) for s, r in naturals if d[s][r] > 0), None)
        if trigger is not None:
            s, r = trigger
            for o in range(2 * MAX_DISTINCT * 8):
                k, j, which = o % 8, (o // 8) % MAX_DISTINCT, o // (8 * MAX_DISTINCT)
                if j >= len(distinct) or not left[j] or which >= len(spots[r]):
                    continue
                lo = spots[r][which] - k
                if k >= distinct[j] or lo < 0 or lo + distinct[j] > n_pos:
                    continue
                if try_run(s, lo, j, prev_code):
                    return True
            return False
        for o in range(prev_code, N_SUITS * 16 * MAX_DISTINCT):
            j, lo, s = o % MAX_DISTINCT, (o // MAX_DISTINCT) % 16, o // (16 * MAX_DISTINCT)
            if j >= len(distinct) or not left[j]:
                continue
            if lo + distinct[j] > n_pos or not has_natural(s, lo, distinct[j]):
                continue
            if try_run(s, lo, j, o):
                return True
        return False

    if dfs(0):
        pool = [[placed(s, r) for r in range(N_RANKS)] for s in range(N_SUITS)]
        return write_runs(runs, pool, deu, ranks, deuces)
    return None


def write_runs(runs, pool, deu, ranks, deuces) -> list[WildRun]:
    """The runs' cards (``wild_search``'s last paragraph); ``pool``: the natural cards that
    stand on each (suit, rank) of the runs."""
    choices = itertools.product(*(range(n) for _, _, n in reversed(runs)))
    for choice in choices:  # the last run's place changes slowest
        anchors = choice[::-1]
        need = Counter((s, ranks[lo + a]) for (s, lo, _), a in zip(runs, anchors, strict=True))
        if all(pool[s][r] >= c for (s, r), c in need.items()):
            break
    else:
        raise AssertionError("no natural card for some run")
    pool = [row[:] for row in pool]
    for (s, r), c in need.items():
        pool[s][r] -= c
    out = []
    for (s, lo, n), anchor in zip(runs, anchors, strict=True):
        cards, jokers, slots = [], 0, []
        for q in range(n):
            r = ranks[lo + q]
            natural = q == anchor
            if not natural and pool[s][r] > 0:
                pool[s][r] -= 1
                natural = True
            slots.append(r * N_SUITS + s if natural else JOKER)
        out.append([s, lo, n, slots])
    wilds = [[0] * n for _, _, n, _ in out]  # a wild 2's suit + 1 on each place
    if deuces:
        for t in range(N_SUITS):
            kind = DEUCE_RANK * N_SUITS + t
            spare = deu[t] - sum(1 for run in out if kind in run[3])
            for i, (_, _, n, slots) in enumerate(out):
                for q in range(n):
                    if spare <= 0:
                        break
                    if slots[q] == JOKER and not wilds[i][q]:
                        wilds[i][q] = t + 1
                        spare -= 1
    runs_out = []
    for (s, lo, n, slots), wild in zip(out, wilds, strict=True):
        cards: Counter = Counter()
        for q in range(n):
            kind = slots[q] if not wild[q] else DEUCE_RANK * N_SUITS + wild[q] - 1
            if kind != JOKER:
                cards[kind] += 1
        flat = sorted(cards) + sorted(k for k in cards if cards[k] > 1)
        flat += sorted(k for k in cards if cards[k] > 2)
        code = sum(w << (3 * q) for q, w in enumerate(wild))
        jokers = sum(1 for q in range(n) if slots[q] == JOKER and not wild[q])
        runs_out.append(WildRun(s, lo, n, flat, jokers, code))
    return runs_out


# ---- the table --------------------------------------------------------------------------------
@dataclass
class TableMeld:
    """A meld on the table. A group is its rank, its natural cards per suit and a count of
    jokers; a run is its first position ``lo`` and what stands on each position from there
    up (``slots``: a natural kind, or ``JOKER``). ``declared``: the natural kinds its jokers
    were declared as (RULES.md §2B.11)."""

    kind: str  # "group" or "run"
    owner: int
    rank: int = -1  # group
    counts: list[int] = field(default_factory=lambda: [0] * N_SUITS)  # group
    jokers: int = 0  # group (a run's are in its slots)
    lo: int = 0  # run: first position
    slots: list[int] = field(default_factory=list)  # run
    suit: int = -1  # run of one suit; -1: any suit
    declared: set[int] = field(default_factory=set)
    slid: set[int] = field(default_factory=set)  # run: positions (mod their count) of slid jokers

    @property
    def length(self) -> int:
        if self.kind == "group":
            return sum(self.counts) + self.jokers
        return len(self.slots)

    @property
    def n_jokers(self) -> int:
        return self.jokers if self.kind == "group" else self.slots.count(JOKER)

    def naturals(self) -> list[int]:
        """Its natural cards, each copy once."""
        if self.kind == "group":
            return [self.rank * N_SUITS + s for s in range(N_SUITS) for _ in range(self.counts[s])]
        return [k for k in self.slots if k != JOKER]


def meld_from(meld: arr.Meld, owner: int, t: Table) -> TableMeld:
    """The table meld ``owner`` lays down from arrangement meld ``meld``."""
    naturals = list(meld.naturals)
    if meld.kind == "group":
        rank = meld.ranks[0]
        counts = [sum(1 for k in naturals if suit_of(k) == s) for s in range(N_SUITS)]
        return TableMeld("group", owner, rank=rank, counts=counts, jokers=meld.jokers)
    lo, digits = meld.key[1], meld.key[3:]
    slots = [
        JOKER if d == arr.JOKER_DIGIT else rank * N_SUITS + d
        for rank, d in zip(meld.ranks, digits, strict=True)
    ]
    suit = -1 if t.meld_rules.any_suit else suit_of(naturals[0])
    return TableMeld("run", owner, lo=lo, slots=slots, suit=suit)


def meld_cards(meld: arr.Meld) -> list[int]:
    """An ``E_MELD``'s cards: the natural cards one copy of each kind at a time (the
    engine's layers: kind order, then the second copies in kind order), then its jokers."""
    count = Counter(meld.naturals)
    cards = []
    for copy in range(max(count.values(), default=0)):
        cards += sorted(k for k, n in count.items() if n > copy)
    return cards + [JOKER] * meld.jokers


def run_ends(t: TableMeld, ace_rank: str) -> list[tuple[int, int]]:
    """The (new lo, rank) of each end a card may extend ``t`` at, below first."""
    ends = []
    if window_ok(ace_rank, t.lo - 1, t.length + 1):
        lo = t.lo - 1
        if ace_rank == "around_corner":
            lo %= N_RANKS
        ends.append((lo, rank_at(ace_rank, t.lo - 1)))
    if window_ok(ace_rank, t.lo, t.length + 1):
        ends.append((t.lo, rank_at(ace_rank, t.lo + t.length)))
    return ends


def fits(table: Table, t: TableMeld, kind: int) -> bool:
    """Could natural ``kind`` be laid off on ``t`` (RULES.md §1.6)? A group takes any card
    of its rank under group_duplicates allowed, else a missing suit while it has fewer
    than 4 cards, but not a card one of its jokers was declared as (§2B.11); a run shorter
    than ``run_max`` a card of its suit just below or above it."""
    if t.kind == "group":
        if rank_of(kind) != t.rank:
            return False
        if table.meld_rules.group_duplicates:
            return True
        if table.no_fourth:  # tonk_no_fourth_in_group (§2L.50)
            return False
        return t.length < N_SUITS and t.counts[suit_of(kind)] == 0 and kind not in t.declared
    if t.suit >= 0 and suit_of(kind) != t.suit:
        return False
    if t.length >= table.meld_rules.run_max:  # run_max (§1.3; Conquian 8, §3.21)
        return False
    if kind in slide_ends(table, t):
        return True
    return any(rank == rank_of(kind) for _, rank in run_ends(t, table.meld_rules.layout))


def slide_ends(table: Table, t: TableMeld) -> dict[int, str]:
    """The natural cards that would take the place of an end joker of run ``t``, the joker
    moving beyond the other end (RULES.md §2B.13): card -> "first" or "last". A joker
    slides once unless ``slide_repeat``, and only where the other end has a free position;
    interior jokers never move."""
    if not table.joker_slide or t.kind != "run" or t.length >= N_RANKS:
        return {}
    ace = table.meld_rules.layout
    count = len(position_ranks(ace))
    out: dict[int, str] = {}
    first, last = t.lo, t.lo + t.length - 1
    room_above = ace == "around_corner" or t.lo + t.length < count
    room_below = ace == "around_corner" or t.lo > 0
    if t.slots[0] == JOKER and room_above and (table.slide_repeat or first % count not in t.slid):
        out[rank_at(ace, first) * N_SUITS + t.suit] = "first"
    if t.slots[-1] == JOKER and room_below and (table.slide_repeat or last % count not in t.slid):
        out.setdefault(rank_at(ace, last) * N_SUITS + t.suit, "last")
    return out


def slide(t: TableMeld, kind: int, end: str, ace_rank: str) -> None:
    """Natural ``kind`` takes the place of ``t``'s ``end`` joker, which moves beyond the
    other end."""
    count = len(position_ranks(ace_rank))
    if end == "first":
        t.slid.discard(t.lo % count)
        t.slots[0] = kind
        t.slots.append(JOKER)
        t.slid.add((t.lo + t.length - 1) % count)
    else:
        t.slid.discard((t.lo + t.length - 1) % count)
        t.slots[-1] = kind
        t.slots.insert(0, JOKER)
        t.lo = (t.lo - 1) % count
        t.slid.add(t.lo)


def lay_off_on(t: TableMeld, kind: int, ace_rank: str) -> None:
    """Natural ``kind`` joins ``t``: below a run's first position when it fits there."""
    if t.kind == "group":
        t.counts[suit_of(kind)] += 1
        return
    lo, _ = next((lo, r) for lo, r in run_ends(t, ace_rank) if r == rank_of(kind))
    if lo == t.lo:
        t.slots.append(kind)
    else:
        t.slots.insert(0, kind)
        t.lo = lo


def takes_joker(table: Table, t: TableMeld) -> bool:
    """Could a joker be laid off on ``t``: a group with fewer than 4 cards (any group under
    group_duplicates allowed), a run with a free end; under the joker limit (§2B.10) not
    when it would then hold more jokers than natural cards."""
    if table.meld_rules.joker_limit and t.n_jokers + 1 > t.length - t.n_jokers:
        return False
    if t.kind == "group":
        return table.meld_rules.group_duplicates or t.length < N_SUITS
    ace = table.meld_rules.layout
    if t.length >= N_RANKS:
        return False
    return ace == "around_corner" or t.lo > 0 or t.lo + t.length < len(position_ranks(ace))


def lay_joker_on(t: TableMeld, ace_rank: str) -> None:
    """A joker joins ``t``: on a run above its last position when there is one, else
    below its first."""
    if t.kind == "group":
        t.jokers += 1
    elif ace_rank == "around_corner" or t.lo + t.length < len(position_ranks(ace_rank)):
        t.slots.append(JOKER)
    else:
        t.lo -= 1
        t.slots.insert(0, JOKER)


def declaration_options(table: Table, t: TableMeld) -> list[int]:
    """What the next joker of ``t`` to be declared now may be declared as (RULES.md
    §2B.11, sim/engine/table.py's docstring), in kind order; empty: none is to be."""
    rule = table.joker_declare
    if rule == "inferred" or t.n_jokers == 0:
        return []
    if t.kind == "run":
        if rule != "always" or not table.meld_rules.any_suit:
            return []  # a run of one suit: the position fixes the card
        ace = table.meld_rules.layout
        for i, slot in enumerate(t.slots):
            rank = rank_at(ace, t.lo + i)
            field_ = [rank * N_SUITS + s for s in range(N_SUITS)]
            if slot == JOKER and not t.declared.intersection(field_):
                return field_
        return []
    if rule == "three_card_group" and t.length != 3:
        return []
    if len(t.declared) >= t.jokers:
        return []
    options = [t.rank * N_SUITS + s for s in range(N_SUITS)]
    options = [k for k in options if k not in t.declared]
    if not table.meld_rules.group_duplicates:
        options = [k for k in options if t.counts[suit_of(k)] == 0]
    return options


def stands_for(table: Table, t: TableMeld) -> set[int]:
    """The natural kinds the jokers of ``t`` stand for, as far as it is fixed: a run of
    one suit's by their positions, an any-suit run's as declared; a group's as declared,
    and a full group's undeclared joker as the one suit left (sim/engine/table.py)."""
    if t.n_jokers == 0:
        return set()
    if t.kind == "run":
        if table.meld_rules.any_suit:
            return set(t.declared)
        ace = table.meld_rules.layout
        return {
            rank_at(ace, t.lo + i) * N_SUITS + t.suit
            for i, slot in enumerate(t.slots)
            if slot == JOKER
        }
    out = set(t.declared)
    if not table.meld_rules.group_duplicates and t.length == N_SUITS:
        missing = {
            t.rank * N_SUITS + s
            for s in range(N_SUITS)
            if t.counts[s] == 0 and t.rank * N_SUITS + s not in t.declared
        }
        if len(missing) == 1:
            out |= missing
    return out


def replace_joker(t: TableMeld, kind: int, ace_rank: str) -> None:
    """Natural ``kind`` (one of ``stands_for``) takes the place of the joker standing for
    it (a run: the first joker on its rank's position); the joker leaves the meld."""
    if t.kind == "group":
        t.counts[suit_of(kind)] += 1
        t.jokers -= 1
    else:
        i = next(
            i
            for i, slot in enumerate(t.slots)
            if slot == JOKER and rank_at(ace_rank, t.lo + i) == rank_of(kind)
        )
        t.slots[i] = kind
        t.slid.discard((t.lo + i) % len(position_ranks(ace_rank)))
    t.declared.discard(kind)


# ---- the hand ---------------------------------------------------------------------------------
class Hand:
    """One hand: ``play()`` returns (end reason, winner, events)."""

    def __init__(
        self,
        table: Table,
        seed: int,
        deal: int,
        dealer: int,
        shard: int = 0,
        bots: tuple[str, ...] = (),
        stake: int = 1,
        table_search=None,
    ):
        self.t = table
        # Carousel: the engine's table search, asked whether it reached its frame cap and
        # which re-partition it chose (``carousel_search``: uncapped, it must be the
        # oracle's own; capped, it is played, checked); where the oracle cannot follow it,
        # the hand stops there (``stopped``: why)
        self.table_search = table_search
        self.stopped: str | None = None
        self.capped = False  # the last table search reached the engine's frame cap
        self.capped_searches = 0  # table searches of this hand that reached it
        self.searches = 0  # table searches of this hand
        self.own_repartitions = 0  # re-partitions the oracle found itself (the engine's too)
        self.final_left = 0  # Carousel: the final turns left after the stock-out
        self.dealer = dealer
        self.sitter = dealer if table.sits_out else -1  # §3.18: the dealer sits out
        self.deal_rng = Stream(stream_seed(seed, shard, deal, STREAM_DEAL))
        self.bots_rng = Stream(stream_seed(seed, shard, deal, STREAM_BOTS))  # random's coins
        # each seat's bot: greedy everywhere; careful only in Conquian, simple only in the
        # knock family, random in every family but Carousel
        self.bots = tuple(bots) or ("greedy",) * table.players
        if len(self.bots) != table.players or any(b not in BOTS for b in self.bots):
            raise ValueError(f"one bot a seat, of {BOTS}: {self.bots}")
        others = {"conquian": {"careful", "random"}, "knock": {"simple", "random"}}
        others.update(dict.fromkeys(("tonk", "phom", "pattern", "progressive"), {"random"}))
        others["carousel"] = {"careful", "random"}
        family = "conquian" if table.conquian else "knock" if table.knock else ""
        family = "carousel" if table.carousel else family
        family = "tonk" if table.tonk else "phom" if table.phom else family
        family = "pattern" if table.pattern or table.alternatives else family
        if not family and table.progressive_family:
            family = "progressive"
        if not set(self.bots) - {"greedy"} <= others.get(family, set()):
            raise NotImplementedError(
                "the oracle hand plays careful in Conquian and Carousel only, simple in the"
                " knock family only, random in those, progressive rummy, Tonk, Phỏm, Nowrang"
                " and Continental only"
            )
        self.owed = 0  # random under reuse_same_turn: jokers taken back, owed to the table
        self.borrows_turn = 0  # random: borrows this turn (one a turn, §2D.22)
        self.stake = stake  # Conquian: the tentos this hand is worth (drawn_hand_carry)
        self.offer = -1  # Conquian: the card on offer on the discard pile (-1: none)
        ranks = arr.positions(table.meld_rules.layout)  # the pack's ranks (§2A.7)
        kinds = [k for k in range(N_NATURAL) if rank_of(k) in ranks]
        shoe = [k for _ in range(table.packs) for k in kinds] + [JOKER] * table.jokers
        self.stock = list(shoe)
        self.ordered = False
        self.discard: list[int] = []
        self.hands = [Counter() for _ in range(table.players)]
        self.played = [False] * table.players  # laid down or off in an earlier turn
        self.melded = [False] * table.players  # has laid down a meld (layoff_requires_meld)
        self.laid_own = [False] * table.players  # has laid off on his own meld (the same)
        # kinds each seat drew from the stock since the table last changed
        self.stock_seen: list[set[int]] = [set() for _ in range(table.players)]
        self.come_round = -1  # the card just drawn from the stock, if it came round
        self.melds: list[TableMeld] = []
        self.events: list[Event] = []
        self.turns = 0
        self.rebuilds = 0
        self.blocked = False  # the hand ended by a declined discard (a block rule)
        self.laid: list[int] = []  # all_at_once: the cards the winner laid down
        self.layoffs_turn = 0  # cards laid off this turn (tonk_layoff_skips_discard)
        self.melds_turn = 0  # melds laid down this turn (the stock card's, §2L.48)
        self.stock_card = -1  # the card drawn from the stock this turn
        self.discarded = False  # the last turn ended with a discard (Tonk's payment)
        # the initial meld (§2D.24-25): who has made it; this turn's count toward it; took
        # the discard top for it by choice; a meld laid down this turn holds the taken card
        self.opened = [table.initial_meld_min == 0] * table.players
        self.open_turn = 0
        self.took_unopened = False
        self.taken_melded = False
        self.picked: list[set[int]] = [set() for _ in range(table.players)]  # Phỏm's taken
        self.draws = [0] * table.players  # cards each seat drew (Continental's quick bonus)
        self.out_runs: list[WildRun] = []  # Continental: the runs the winner laid down
        self.upcard = -1  # the hand's upcard (Oklahoma's knock limit and spade double)
        self.deadwood_shown = [0] * table.players  # the knock family's showdown
        self.side = [0] * table.players  # Oklahoma's side bonuses (§2I.39)
        self.taken_now: list[int] = []  # Tonk's random: the taken cards its actions keep

    # ---- small helpers
    def log(self, etype: int, seat: int, a: int = 0, b: int = 0, cards=()) -> None:
        self.events.append((etype, seat, a, b, tuple(cards)))

    def pop_stock(self) -> int:
        if not self.ordered:
            j = self.deal_rng.below(len(self.stock))
            self.stock[j], self.stock[-1] = self.stock[-1], self.stock[j]
        return self.stock.pop()

    def step(self, seat: int) -> int:
        """The seat after ``seat`` in the direction of play (``play_direction``, §2K.46),
        passing a seat that sits the hand out (3-player gin's dealer, §3.18)."""
        nxt = (seat + self.t.direction) % self.t.players
        if nxt == self.sitter:
            nxt = (nxt + self.t.direction) % self.t.players
        return nxt

    def cards_of(self, seat: int) -> list[int]:
        return sorted(self.hands[seat].elements())

    def give(self, seat: int, kind: int) -> None:
        self.hands[seat][kind] += 1

    def take(self, seat: int, kind: int) -> None:
        hand = self.hands[seat]
        hand[kind] -= 1
        if hand[kind] == 0:
            del hand[kind]

    # ---- deal
    def deal_cards(self) -> None:
        t = self.t
        first = self.step(self.dealer)
        seat = first
        seats = t.players - (self.sitter >= 0)
        for _ in range(t.hand_size * seats):  # one at a time, from the first player
            self.give(seat, self.pop_stock())
            seat = self.step(seat)
        if t.phom or t.eleven:  # §3.13: the first player's 10th card; §3.15: his 11th
            self.give(first, self.pop_stock())
        for p in range(t.players):
            self.log(E_DEAL, p, cards=self.cards_of(p))
        if t.upcard:
            up = self.pop_stock()
            self.discard.append(up)
            self.upcard = up
            self.log(E_UPCARD, -1, up)

    # ---- rules questions
    @staticmethod
    def may_go(hand: Counter, kind: int, taken: list[int]) -> bool:
        """May ``kind`` (held) be discarded: not a card taken from the discard pile this
        turn, unless another copy of it is held (several packs); a kind taken twice
        (``top_plus_one``) is kept whatever is held?"""
        n = taken.count(kind)
        return n == 0 or (n == 1 and hand[kind] >= 2)

    @staticmethod
    def spend(taken: list[int], played) -> list[int]:
        """Playing a taken card (or a copy) to the table spends the rule that it may not be
        discarded: each taken kind among ``played``, one copy when both are one kind."""
        taken = list(taken)
        if taken and taken[0] in played:
            first = taken[0]
            taken[0] = -1
            if len(taken) > 1 and taken[1] == first:
                return taken
        if len(taken) > 1 and taken[1] in played:
            taken[1] = -1
        return taken

    def allowed(self, seat: int, taken: list[int]) -> list[int]:
        """The natural kinds ``seat`` may discard."""
        hand = self.hands[seat]
        return sorted(k for k in hand if k != JOKER and self.may_go(hand, k, taken))

    def can_end(self, hand: Counter, taken: list[int]) -> bool:
        """Could a turn whose hand is ``hand`` still end legally: an empty hand where going
        out without a discard is allowed, a joker besides the jokers taken from the discard
        pile this turn, or a natural card that may go?"""
        if not hand:
            return not self.t.must_discard
        if hand[JOKER] > taken.count(JOKER):
            return True
        return any(self.may_go(hand, k, taken) for k in hand if k != JOKER)

    @staticmethod
    def spend_joker(taken: list[int]) -> list[int]:
        """A joker played to the table spends the rule for a joker taken from the discard
        pile (jokers are identical), the first such one."""
        taken = list(taken)
        if JOKER in taken:
            taken[taken.index(JOKER)] = -1
        return taken

    def table_changed(self) -> None:
        for seen in self.stock_seen:
            seen.clear()

    def in_some_meld(self, cards: Counter, kind: int) -> bool:
        """Is natural ``kind`` in some meld of ``cards`` (which hold it, and maybe jokers)?
        Every meld holds a group of three or a run of three through each of its cards, so
        three cards are enough: ``kind`` with cards of its rank (other suits; any copies
        under group_duplicates allowed with several packs), or on three run positions in a
        row, the jokers filling the rest. As the engine's ``meldable`` this ignores the joker
        limit (§2B.10): a superset, which only greedy's take-test reads then."""
        r, s = rank_of(kind), suit_of(kind)
        jokers = cards[JOKER]
        rank_kinds = [r * N_SUITS + t for t in range(N_SUITS)]
        if self.t.meld_rules.group_duplicates and self.t.packs > 1:
            have = sum(cards[k] for k in rank_kinds)
        else:
            have = sum(1 for k in rank_kinds if cards[k] > 0)
        if have + jokers >= 3:
            return True
        ace = self.t.meld_rules.layout
        any_suit = self.t.meld_rules.any_suit
        n_pos = len(position_ranks(ace))
        for pos in positions_of(ace, r):
            for lo in range(pos - 2, pos + 1):
                if ace != "around_corner" and (lo < 0 or lo + 3 > n_pos):
                    continue
                filled = 0
                for i in range(3):
                    rr = rank_at(ace, lo + i)
                    suits = range(N_SUITS) if any_suit else (s,)
                    if any(cards[rr * N_SUITS + t] for t in suits):
                        filled += 1
                if filled + jokers >= 3:
                    return True
        return False

    def any_meld(self, cards: Counter) -> bool:
        return any(self.in_some_meld(cards, k) for k in cards if k != JOKER)

    def may_lay_off_on(self, seat: int, meld: TableMeld) -> bool:
        """May ``seat`` lay off on ``meld`` (RULES.md §2D.21): on his own melds always, on
        the others' after his first meld (``after_first_meld``) or after a lay-off on one
        of his own melds (``after_own_layoff``)."""
        if not self.opened[seat]:
            return False  # no lay-off before one's initial meld (§2D.21's note)
        need = self.t.layoff_requires_meld
        if meld.owner == seat or need == "off":
            return True
        return self.melded[seat] if need == "after_first_meld" else self.laid_own[seat]

    def first_fit(self, kind: int, seat: int) -> int:
        """The first table meld ``seat`` may lay natural ``kind`` off on, or -1."""
        for m, meld in enumerate(self.melds):
            if fits(self.t, meld, kind) and self.may_lay_off_on(seat, meld):
                return m
        return -1

    def first_joker_fit(self, seat: int) -> int:
        """The first table meld ``seat`` may lay a joker off on (``takes_joker``), or -1."""
        for m, meld in enumerate(self.melds):
            if takes_joker(self.t, meld) and self.may_lay_off_on(seat, meld):
                return m
        return -1

    def lay_off_joker(self, seat: int, m: int) -> None:
        """``seat`` lays a joker off on table meld ``m`` (from his hand or, called, from
        the discard pile) and declares it when the rules ask (``declare_jokers``)."""
        meld = self.melds[m]
        lay_joker_on(meld, self.t.meld_rules.layout)
        if meld.owner == seat:
            self.laid_own[seat] = True
        self.log(E_LAYOFF, seat, m, JOKER)
        self.table_changed()
        self.declare_jokers(seat, m)

    def declare_jokers(self, seat: int, m: int) -> None:
        """``seat`` declares each joker of table meld ``m`` that must be declared now
        (``declaration_options``) as the lowest card it may be (greedy), or a uniform one of
        them (random)."""
        while True:
            options = declaration_options(self.t, self.melds[m])
            if not options:
                return
            choice = options[0]
            if self.bots[seat] == "random":  # uniform (docs/bots.md, joker declarations)
                choice = options[self.bots_rng.below(len(options))]
            elif self.bots[seat] == "careful":  # the fewest unseen copies, then the lowest
                choice = min(options, key=lambda k: (self.unseen(seat, k), k))
            self.melds[m].declared.add(choice)
            self.log(E_DECLARE, seat, m, choice)
            self.table_changed()

    def may_steal(self, seat: int, put_down: bool) -> bool:
        """May a table joker be replaced now (§2B.12): under ``steal_by_replacement`` in
        the table phase, under ``to_hand`` only before laying anything down this turn,
        under ``reuse_same_turn`` once ``seat`` has made his initial meld."""
        if self.t.jokers == 0:
            return False
        if self.t.joker_replace == "to_hand":
            return not put_down
        if self.t.joker_replace == "reuse_same_turn":
            return self.opened[seat]
        return self.t.joker_replace == "steal_by_replacement"

    def steal_joker(self, seat: int, m: int, kind: int, taken: list[int]) -> list[int]:
        """``seat`` replaces a joker of table meld ``m`` by his ``kind`` (§2B.12), the joker
        to his hand; returns the cards taken from the discard pile not yet played."""
        self.take(seat, kind)
        self.give(seat, JOKER)
        replace_joker(self.melds[m], kind, self.t.meld_rules.layout)
        self.log(E_STEAL, seat, m, kind)
        self.table_changed()
        return self.spend(taken, (kind,))

    def usable(self, seat: int, kind: int, taken: list[int]) -> bool:
        """``reuse_same_turn``: could the joker freed by ``kind`` go back to the table this
        turn (a meld ``seat`` may lay off on takes a joker) with the turn still able to end
        without ``kind`` (``ends_after``: random's jokers owed counted)? Always under the
        other rules. Never the kind of a discard taken for the initial meld until it is made
        (§2D.25: that card goes into it). Greedy's and random's replacements alike."""
        if self.took_unopened and taken and kind == taken[0]:
            return False
        if self.t.joker_replace != "reuse_same_turn":
            return True
        rest = Counter(self.hands[seat])
        rest[kind] -= 1
        return self.first_joker_fit(seat) >= 0 and self.ends_after(rest, taken)

    def steal_all(self, seat: int, plan: int, taken: list[int]) -> tuple[list[int], bool]:
        """Greedy replaces table jokers by the natural cards they stand for while it holds
        one, never its planned discard: its lowest such card first, on the lowest meld
        row; the joker goes to its hand. Returns (the taken cards not yet played, replaced
        any)."""
        hand = self.hands[seat]
        stole = False
        while True:
            choice = None
            for m, meld in enumerate(self.melds):
                here = [k for k in stands_for(self.t, meld) if hand[k] > 0 and k != plan]
                here = [k for k in here if self.usable(seat, k, taken)]
                if here and (choice is None or min(here) < choice[1]):
                    choice = (m, min(here))
            if choice is None:
                return taken, stole
            m, kind = choice
            taken = self.steal_joker(seat, m, kind, taken)
            stole = True
            if self.t.joker_replace == "reuse_same_turn":  # the joker goes back at once
                self.take(seat, JOKER)
                self.lay_off_joker(seat, self.first_joker_fit(seat))
                taken = self.spend_joker(taken)

    def lay_off(self, seat: int, m: int, kind: int) -> None:
        """``seat`` lays natural ``kind`` off on table meld ``m`` (from his hand or, called,
        from the discard pile)."""
        meld = self.melds[m]
        end = slide_ends(self.t, meld).get(kind)
        if end is not None:  # §2B.13
            slide(meld, kind, end, self.t.meld_rules.layout)
        else:
            lay_off_on(meld, kind, self.t.meld_rules.layout)
        if meld.owner == seat:
            self.laid_own[seat] = True
        self.layoffs_turn += 1
        self.log(E_LAYOFF if end is None else E_SLIDE, seat, m, kind)
        self.table_changed()

    def best(
        self, hand: Counter, minimum: int = 0, must: int | None = None
    ) -> tuple[int, tuple[arr.Meld, ...]]:
        if not self.any_meld(hand):
            return 0, ()
        return arr.best_arrangement(
            sorted(hand.elements()),
            self.t.meld_rules,
            self.t.values,
            self.t.meld_limit,
            minimum=minimum,
            must=must,
            ace_low=self.t.opening_ace_low,
        )

    def opening_terms(self, seat: int, taken: list[int]) -> tuple[int, int | None]:
        """What ``seat``'s arrangement must meet before his initial meld: the count still
        missing, and the discard he took for it (unless played already)."""
        if self.opened[seat]:
            return 0, None
        must = taken[0] if self.took_unopened and taken and taken[0] >= 0 else None
        return self.t.initial_meld_min - self.open_turn, must

    def count_opening(self, seat: int, meld: arr.Meld, before: int, taken: list[int]) -> None:
        """``meld`` went down; ``before`` was the taken card not yet played (-1: none)."""
        if self.t.initial_meld_min == 0:
            return
        if before >= 0 and (not taken or taken[0] != before):
            self.taken_melded = True
        if self.opened[seat]:
            return
        self.open_turn += arr.opening_value(meld, self.t.values, self.t.opening_ace_low)
        pending = self.took_unopened and not self.taken_melded
        if self.open_turn >= self.t.initial_meld_min and not pending:
            self.opened[seat] = True

    def takes_top(self, seat: int, top: int) -> bool:
        """Does greedy take the discard top: before its initial meld under
        ``only_for_initial_meld`` only to meld it in it (module docstring)."""
        if self.t.tonk and self.bots[seat] == "random":
            return self.coin()  # Tonk's random: a fair coin
        if self.t.alternatives:
            return self.wild_wants(seat, top)
        if self.t.knock:
            return self.knock_wants(seat, top)
        if self.t.pattern:
            return self.pattern_wants(seat, top)
        random = self.bots[seat] == "random"
        if random and self.t.all_at_once:
            return self.coin()  # all at once: a fair coin (the knock family's take)
        if self.t.only_for_initial and not self.opened[seat]:
            self.give(seat, top)
            self.took_unopened = True
            _, melds = self.greedy_arrangement(seat, [top])
            self.took_unopened = False
            self.take(seat, top)
            return bool(melds) and (not random or self.coin())  # random asked only then
        if random:
            return self.coin()
        return self.greedy_wants(seat, top)

    # ---- greedy
    def greedy_wants(self, seat: int, top: int) -> bool:
        """Greedy's take-test: a joker, or a card that melds with its hand or fits a
        table meld it may lay off on."""
        if top == JOKER:
            return True
        if self.first_fit(top, seat) >= 0:
            return True
        cards = Counter(self.hands[seat])
        cards[top] += 1
        if not self.in_some_meld(cards, top):
            return False
        if not self.t.meld_rules.joker_limit:
            return True
        every = arr.all_melds(sorted(cards.elements()), self.t.meld_rules)
        return any(top in m.naturals for m in every)  # a meld within the joker limit

    def area_choice(self, seat: int) -> int:
        """``any_card``: the place in the area of the card greedy takes, or -1 (module
        docstring)."""
        if self.bots[seat] == "random":  # a coin, then a uniform place (the oldest first)
            return self.bots_rng.below(len(self.discard)) if self.coin() else -1
        wanted = [
            (self.t.values[k], k, i)
            for i, k in enumerate(self.discard)
            if self.greedy_wants(seat, k)
        ]
        return max(wanted)[2] if wanted else -1

    def wants_pair(self, seat: int, top: int) -> bool:
        """``top_plus_one``: does greedy take ``top`` and a second card (module docstring)?"""
        if len(self.stock) + len(self.discard) < 3:
            return False  # the next player would have nothing to draw
        if self.bots[seat] == "random":
            return self.coin()
        if self.greedy_wants(seat, top):
            return True
        going_round = set().union(*self.stock_seen)
        return (
            self.rebuilds > 0
            and bool(self.stock)
            and top in going_round
            and self.partial_with(seat, top)
        )

    def partial_with(self, seat: int, top: int) -> bool:
        """Is ``top`` in a partial meld of ``seat``'s hand with it?"""
        self.give(seat, top)
        found = self.partial(seat, top)
        self.take(seat, top)
        return found

    def greedy_table(self, seat: int, taken: list[int]) -> tuple[int, list[int], bool]:
        """Replace table jokers first under ``to_hand``, lay down, replace table jokers
        under ``steal_by_replacement``, and lay off; returns (planned discard or -1, the
        kinds that may still not be discarded, played a card). Playing the taken card, or
        with several packs a copy of it, to the table spends the rule that it may not be
        discarded."""
        played = False
        if self.may_steal(seat, False) and self.t.joker_replace == "to_hand":
            taken, played = self.steal_all(seat, -1, taken)
        plan, melds = -1, ()
        if not (self.t.meld_limit and self.melds_turn >= self.t.meld_limit):
            plan, melds = self.greedy_arrangement(seat, taken)
        for m in melds:
            taken = self.lay_down(seat, m, taken)
            played = True
        if self.may_steal(seat, bool(melds)):
            taken, stole = self.steal_all(seat, plan, taken)
            played = played or stole
        taken, laid = self.lay_off_all(seat, plan, taken)
        played = played or laid
        if self.t.borrowing != "off":
            borrowed, taken = self.greedy_borrow(seat, plan, taken, bool(melds))
            if borrowed:
                taken, _ = self.lay_off_all(seat, plan, taken)
                played = True
        return plan, taken, played

    def lay_off_all(self, seat: int, plan: int, taken: list[int]) -> tuple[list[int], bool]:
        """Greedy's lay-offs until none goes: (the taken cards not yet played, laid any)."""
        laid_any = False
        while not (self.layoffs_turn and self.t.one_layoff):  # tonk_one_layoff_per_turn
            taken, laid = self.lay_off_one(seat, plan, taken)
            if not laid:
                return taken, laid_any
            laid_any = True
        return taken, laid_any

    # ---- borrowing (§2D.22; sim/engine/borrow.py's readings)
    def lends(self, seat: int, meld: TableMeld) -> list[int]:
        """The natural cards ``seat`` may borrow from ``meld`` (rule and timing checked by
        the caller), in kind order."""
        if self.t.borrowing == "own" and meld.owner != seat:
            return []
        jokers = meld.n_jokers
        if meld.length < 4:
            return []
        if self.t.meld_rules.joker_limit and jokers > meld.length - jokers - 1:
            return []
        if meld.kind == "group":
            if (
                self.t.joker_declare == "three_card_group"
                and meld.length == 4
                and len(meld.declared) < min(jokers, N_SUITS)
            ):
                return []
            return [meld.rank * N_SUITS + s for s in range(N_SUITS) if meld.counts[s] > 0]
        return sorted({k for k in (meld.slots[0], meld.slots[-1]) if k != JOKER})

    def borrow_search(
        self, seat: int, plan: int, taken: list[int], kind: int
    ) -> tuple[int, tuple[arr.Meld, ...]]:
        """(the points of his own hand the best arrangement with ``kind`` added and melded
        melds, or -1 when none leaves the turn an end; its melds)."""
        hand = Counter(self.hands[seat])
        hand[kind] += 1
        search = Counter(hand)
        if plan >= 0:
            search[plan] -= 1
        value, melds = self.best(+search, 0, kind)
        if not melds:
            return -1, ()
        left = Counter(hand)
        for m in melds:
            left.subtract(m.naturals)
            left[JOKER] -= m.jokers
        if not self.can_end(+left, taken):
            return -1, ()
        return (value - self.t.values[kind] if value > 0 else -1), melds

    def greedy_borrow(
        self, seat: int, plan: int, taken: list[int], melded: bool
    ) -> tuple[bool, list[int]]:
        """Greedy's borrow (sim/engine/greedy.py ``greedy_borrow``): the card that melds the
        most of its own points, ties to the lowest meld, then the lowest card; returns
        (borrowed, the taken cards not yet played)."""
        may_meld = self.t.meld_limit == 0 or not melded
        opened = self.t.initial_meld_min == 0 or self.opened[seat]
        if not may_meld or not opened:
            return False, taken
        best = None
        for m, meld in enumerate(self.melds):
            for k in self.lends(seat, meld):
                gain, melds = self.borrow_search(seat, plan, taken, k)
                if gain > 0 and (best is None or gain > best[0]):
                    best = (gain, m, k, melds)
        if best is None:
            return False, taken
        _, m, k, melds = best
        self.unlend(m, k)
        self.give(seat, k)
        self.log(E_BORROW, seat, m, k)
        first = next(x for x in melds if k in x.naturals)
        for x in (first, *(x for x in melds if x is not first)):
            taken = self.lay_down(seat, x, taken)
        return True, taken

    def unlend(self, m: int, k: int) -> None:
        """Natural ``k`` (one ``lends`` gave) leaves table meld ``m``: a run's first card
        when it is that card, else its last."""
        meld = self.melds[m]
        if meld.kind == "group":
            meld.counts[suit_of(k)] -= 1
        elif meld.slots[0] == k:
            meld.slots.pop(0)
            count = len(position_ranks(self.t.meld_rules.layout))
            meld.lo = (meld.lo + 1) % count
        else:
            meld.slots.pop()
        self.table_changed()

    def lay_down(self, seat: int, m: arr.Meld, taken: list[int]) -> list[int]:
        """``seat`` lays down meld ``m`` from his hand and declares its jokers when the
        rules ask; returns the taken cards not yet played."""
        for k in m.naturals:
            self.take(seat, k)
        for _ in range(m.jokers):
            self.take(seat, JOKER)
        self.melds.append(meld_from(m, seat, self.t))
        self.melds_turn += 1
        row = len(self.melds) - 1
        self.log(E_MELD, seat, row, 0, meld_cards(m))
        self.table_changed()
        self.melded[seat] = True
        before = taken[0] if taken else -1
        taken = self.spend(taken, m.naturals)
        if m.jokers:
            taken = self.spend_joker(taken)
        self.count_opening(seat, m, before, taken)
        if m.jokers:
            self.declare_jokers(seat, row)
        return taken

    def lay_off_one(self, seat: int, plan: int, taken: list[int]) -> tuple[list[int], bool]:
        """Greedy's next lay-off: its lowest natural card (not the planned discard) that
        fits a meld it may lay off on and leaves the turn an end, on the first such meld;
        else, a joker on the first meld that takes one. Returns (the taken cards not yet
        played, laid a card off)."""
        hand = self.hands[seat]
        for k in sorted(hand):
            if k in (JOKER, plan):
                continue
            m = self.first_fit(k, seat)
            if m < 0:
                continue
            rest = Counter(hand)
            rest[k] -= 1
            if not self.can_end(+rest, taken):
                continue
            self.take(seat, k)
            self.lay_off(seat, m, k)
            return self.spend(taken, (k,)), True
        if hand[JOKER] > 0:
            rest = Counter(hand)
            rest[JOKER] -= 1
            m = self.first_joker_fit(seat)
            if m >= 0 and self.can_end(+rest, taken):
                self.take(seat, JOKER)
                self.lay_off_joker(seat, m)
                return self.spend_joker(taken), True
        return taken, False

    def greedy_arrangement(self, seat: int, taken: list[int]) -> tuple[int, tuple]:
        """(planned discard or -1, melds): the best arrangement that meets the initial
        meld's terms, or, when it would leave no legal end of the turn, the best one that
        keeps back the allowed card whose keeping back melds most (the lowest kind)."""
        hand = self.hands[seat]
        minimum, must = self.opening_terms(seat, taken)
        _, melds = self.best(hand, minimum, must)
        if not melds:
            return -1, melds
        left = Counter(hand)
        for m in melds:
            left.subtract(m.naturals)
            left[JOKER] -= m.jokers
        if self.can_end(+left, taken):
            return -1, melds
        choice = None
        for c in self.allowed(seat, taken):
            rest = Counter(hand)
            rest[c] -= 1
            value, kept = self.best(+rest, minimum, must)
            if choice is None or value > choice[0]:
                choice = (value, c, kept)
        if choice is None:  # no natural card may go (jokers and taken cards): lay nothing
            return -1, ()
        return choice[1], choice[2]

    def partial(self, seat: int, kind: int) -> bool:
        """Is natural ``kind`` in a partial meld of ``seat``'s hand?"""
        hand = self.hands[seat]
        r, s = rank_of(kind), suit_of(kind)
        ace = self.t.meld_rules.layout
        if self.t.meld_rules.group_duplicates and self.t.packs > 1 and hand[kind] > 1:
            return True  # an identical pair
        for k in hand:
            if k in (kind, JOKER):
                continue
            if rank_of(k) == r:
                return True
            same_suit = self.t.meld_rules.any_suit or suit_of(k) == s
            if same_suit and run_distance(ace, rank_of(k), r) <= 2:
                return True
        return False

    def greedy_discard(self, seat: int, taken: list[int], plan: int) -> int:
        allowed = self.allowed(seat, taken)
        if plan >= 0 and plan in allowed:
            return plan
        if self.come_round >= 0 and any(k != self.come_round for k in allowed):
            allowed = [k for k in allowed if k != self.come_round]  # keep it
        pool = [k for k in allowed if not self.partial(seat, k)] or allowed
        if not pool:  # no natural card may go: a joker last
            return JOKER
        return max(pool, key=lambda k: (self.t.values[k], k))

    # ---- random (progressive rummy; docs/bots.md "random", sim/engine/random_bot.py)
    def wants_second(self, seat: int, card: int) -> bool:
        """``top_plus_one``: take ``card``, the next discard, as the second card? Each bot's
        take-test (random: its take of the discard top, a coin)."""
        if self.bots[seat] == "random":
            return self.takes_top(seat, card)
        return self.greedy_wants(seat, card)

    def random_discard(self, seat: int, taken: list[int]) -> int:
        """A uniform card among the allowed natural kinds in kind order, then a joker when
        one may go (one held beside the jokers taken from the discard pile this turn and
        those owed to the table)."""
        allowed = self.allowed(seat, taken)
        if self.hands[seat][JOKER] - self.owed > taken.count(JOKER):
            allowed.append(JOKER)
        return allowed[self.bots_rng.below(len(allowed))]

    def ends_after(self, rest: Counter, taken: list[int], jokers_played: int = 0) -> bool:
        """Could the turn still end legally with ``rest`` left in hand, ``jokers_played`` of
        his jokers having gone to the table (which pay the jokers owed back first)? An
        empty hand where going out without a discard is allowed, a joker besides those
        taken from the discard pile and those still owed, or a natural card that may go."""
        rest = +rest
        if not rest:
            return not self.t.must_discard
        owed = max(0, self.owed - jokers_played)
        if rest[JOKER] - owed > taken.count(JOKER):
            return True
        return any(self.may_go(rest, k, taken) for k in rest if k != JOKER)

    def melds_through(self, cards: Counter) -> dict[int, list[arr.Meld]]:
        """Natural kind c -> the melds of ``cards`` that hold c, in the engine's listing
        order (``melds.list_candidates``: the groups by their counts per suit, spades
        first, then jokers; the runs by window, then by what stands on each position: a
        suit, then a joker; that is, by key), at most ``MAX_CAND`` of them."""
        every = arr.all_melds(sorted(cards.elements()), self.t.meld_rules)
        out: dict[int, list[arr.Meld]] = {}
        for meld in sorted(every, key=lambda m: m.key):
            for c in set(meld.naturals):
                listed = out.setdefault(c, [])
                if len(listed) < MAX_CAND:
                    listed.append(meld)
        return out

    def opens_after(self, seat: int, taken: list[int], meld: arr.Meld) -> bool:
        """Before ``seat``'s initial meld: would laying down ``meld`` make it, alone or
        with greedy's arrangement of the rest (which meets what is then still missing, the
        card taken for it included; with one meld a turn it must do alone)?"""
        hand = self.hands[seat]
        rest = Counter(hand)
        rest.subtract(meld.naturals)
        rest[JOKER] -= meld.jokers
        after = list(taken)
        if after and 0 <= after[0] < JOKER and after[0] in meld.naturals:
            after[0] = -1
        if after and after[0] == JOKER and meld.jokers > 0:
            after[0] = -1
        opening = self.open_turn
        self.hands[seat] = +rest
        self.open_turn += arr.opening_value(meld, self.t.values, self.t.opening_ace_low)
        minimum, must = self.opening_terms(seat, after)
        found = minimum <= 0 and must is None
        if not found and self.t.meld_limit == 0:
            found = bool(self.greedy_arrangement(seat, after)[1])
        self.hands[seat] = hand
        self.open_turn = opening
        return found

    def random_actions(self, seat: int, taken: list[int]) -> list[tuple]:
        """Every legal table action of ``seat`` now, in the documented order (module
        docstring, "random"): new melds, lay-offs, joker lay-offs, replacements, borrows."""
        hand = self.hands[seat]
        t = self.t
        acts: list[tuple] = []
        owing = self.owed > 0
        may_meld = t.meld_limit == 0 or self.melds_turn < t.meld_limit
        opened = self.opened[seat]
        if may_meld and not owing:
            listed = self.melds_through(hand)
            for c in sorted(k for k in hand if k != JOKER):
                for meld in listed.get(c, []):
                    if min(meld.naturals) != c:
                        continue  # listed under its lowest natural card
                    rest = Counter(hand)
                    rest.subtract(meld.naturals)
                    rest[JOKER] -= meld.jokers
                    if not self.ends_after(rest, taken, meld.jokers):
                        continue
                    if not opened and not self.opens_after(seat, taken, meld):
                        continue
                    acts.append(("meld", meld))
        if not owing:
            for k in sorted(k for k in hand if k != JOKER):
                rest = Counter(hand)
                rest[k] -= 1
                if not self.ends_after(rest, taken):
                    continue
                for m, meld in enumerate(self.melds):
                    if fits(t, meld, k) and self.may_lay_off_on(seat, meld):
                        acts.append(("layoff", m, k))
        if hand[JOKER] > 0:
            rest = Counter(hand)
            rest[JOKER] -= 1
            if self.ends_after(rest, taken, 1):
                for m, meld in enumerate(self.melds):
                    if self.may_lay_off_on(seat, meld) and takes_joker(t, meld):
                        acts.append(("joker", m))
        if owing:
            return acts
        if self.random_may_steal(seat):
            for m, meld in enumerate(self.melds):
                for k in sorted(stands_for(t, meld)):
                    if hand[k] > 0 and self.usable(seat, k, taken):
                        acts.append(("steal", m, k))
        if t.borrowing != "off" and self.borrows_turn == 0 and may_meld and opened:
            for m, meld in enumerate(self.melds):
                for k in self.lends(seat, meld):
                    cards = Counter(hand)
                    cards[k] += 1
                    for new in self.melds_through(cards).get(k, []):
                        rest = Counter(cards)
                        rest.subtract(new.naturals)
                        rest[JOKER] -= new.jokers
                        if self.ends_after(rest, taken, new.jokers):
                            acts.append(("borrow", m, k, new))
        return acts

    def random_may_steal(self, seat: int) -> bool:
        """May a table joker be replaced now (§2B.12): under ``to_hand`` only before
        anything was laid down or off this turn (a joker lay-off too)."""
        if self.t.jokers == 0:
            return False
        if self.t.joker_replace == "to_hand":
            return self.melds_turn == 0 and self.layoffs_turn == 0
        if self.t.joker_replace == "reuse_same_turn":
            return self.opened[seat]
        return self.t.joker_replace == "steal_by_replacement"

    def random_act(self, seat: int, act: tuple, taken: list[int]) -> list[int]:
        """Carry out one action of ``random_actions``; returns the taken cards not yet
        played."""
        what = act[0]
        if what == "meld":
            meld = act[1]
            opened = self.opened[seat]
            taken = self.lay_down(seat, meld, taken)
            self.owed = max(0, self.owed - meld.jokers)
            if not opened and not self.opened[seat]:  # greedy's arrangement of the rest
                _, melds = self.greedy_arrangement(seat, taken)
                for x in melds:
                    taken = self.lay_down(seat, x, taken)
                    self.owed = max(0, self.owed - x.jokers)
        elif what == "layoff":
            _, m, k = act
            self.take(seat, k)
            self.lay_off(seat, m, k)
            taken = self.spend(taken, (k,))
        elif what == "joker":
            self.take(seat, JOKER)
            self.lay_off_joker(seat, act[1])
            self.layoffs_turn += 1
            self.owed = max(0, self.owed - 1)
            taken = self.spend_joker(taken)
        elif what == "steal":
            _, m, k = act
            taken = self.steal_joker(seat, m, k, taken)
            if self.t.joker_replace == "reuse_same_turn":
                self.owed += 1  # it goes back to the table this turn
        else:  # borrow
            _, m, k, new = act
            self.unlend(m, k)
            self.give(seat, k)
            self.log(E_BORROW, seat, m, k)
            self.borrows_turn += 1
            taken = self.lay_down(seat, new, taken)
            self.owed = max(0, self.owed - new.jokers)
        return taken

    def random_table(self, seat: int, taken: list[int]) -> tuple[list[int], bool]:
        """Random's table play: again and again a uniform pick among every legal action
        and stopping (not while the discard taken for the initial meld is not melded, nor
        while a joker taken back under ``reuse_same_turn`` is owed); returns (the taken
        cards not yet played, played a card)."""
        self.owed = 0
        self.borrows_turn = 0
        played = False
        while sum(self.hands[seat].values()) > 0:
            acts = self.random_actions(seat, taken)
            must = (self.took_unopened and not self.opened[seat]) or self.owed > 0
            n = len(acts)
            if must and n == 0:
                break  # never expected (the engine's audit counts it)
            pick = self.bots_rng.below(n if must else n + 1)
            if pick == n:
                break
            taken = self.random_act(seat, acts[pick], taken)
            played = True
        return taken, played

    # ---- all at once (greedy)
    def deadwood(self, hand: Counter) -> int:
        value, _ = self.concealed_best(hand)
        return sum(self.t.values[k] * n for k, n in hand.items()) - value

    def concealed_best(self, hand: Counter) -> tuple[int, tuple[arr.Meld, ...]]:
        """``best`` without conditions; with one pack, no jokers and any number of melds by
        ``memo_arrangement`` (the same declared choice, found without listing every
        arrangement: random's hands under all at once grow to 20 cards and more)."""
        t = self.t
        if t.packs == 1 and t.jokers == 0 and t.meld_limit == 0:
            return memo_arrangement(t.meld_rules, t.values, tuple(sorted(hand.elements())))
        return self.best(hand)

    def concealed_turn(self, seat: int, taken: int) -> int:
        """Go out if ``seat`` can (laying the melds down), returning the card to discard
        (-1: none, the whole hand went down); else greedy's discard under all_at_once."""
        hand = self.hands[seat]
        allowed = self.allowed(seat, taken)
        out = None
        # a card in no meld of the hand can never be melded: at most one such card, the discard
        loose = [k for k in hand if not self.in_some_meld(hand, k)]
        if not loose and not self.t.must_discard and self.deadwood(hand) == 0:
            out = -1
        elif len(loose) <= 1:  # the lowest-valued card whose discard leaves the rest melded
            candidates = [k for k in loose or allowed if k in allowed]
            for c in sorted(candidates, key=lambda k: (self.t.values[k], -k)):  # then higher kind
                rest = Counter(hand)
                rest[c] -= 1
                if self.deadwood(+rest) == 0:
                    out = c
                    break
        if out is not None and (self.bots[seat] != "random" or self.coin()):
            rest = Counter(hand)
            if out >= 0:
                rest[out] -= 1
            _, melds = self.concealed_best(+rest)
            for m in melds:
                for k in m.naturals:
                    self.take(seat, k)
                    self.laid.append(k)
                self.melds.append(meld_from(m, seat, self.t))
                self.log(E_MELD, seat, len(self.melds) - 1, 0, sorted(m.naturals))
            return out
        if self.bots[seat] == "random":  # a uniform allowed card outside the arrangement
            _, melds = self.concealed_best(hand)
            melded = {k for m in melds for k in m.naturals}
            pool = [k for k in allowed if k not in melded] or allowed
            return pool[self.bots_rng.below(len(pool))]
        if self.come_round >= 0 and any(k != self.come_round for k in allowed):
            allowed = [k for k in allowed if k != self.come_round]  # keep it
        _, melds = self.concealed_best(hand)
        melded = {k for m in melds for k in m.naturals}
        pool = [k for k in allowed if k not in melded] or allowed
        pool = [k for k in pool if not self.partial(seat, k)] or pool
        return max(pool, key=lambda k: (self.t.values[k], k))

    # ---- a fixed go-out pattern (Nowrang §3.15; docs/bots.md, "Fixed patterns: Nowrang")
    def cover(self, kinds: set[int]) -> tuple[int, frozenset[int]]:
        return pattern_cover(frozenset(kinds), self.t.pattern, self.t.meld_rules.layout)

    def pattern_wants(self, seat: int, top: int) -> bool:
        """Greedy takes the discard top when it makes the hand's cover larger; random on a
        coin."""
        if self.bots[seat] == "random":
            return self.coin()
        kinds = set(self.hands[seat])
        return self.cover(kinds | {top})[0] > self.cover(kinds)[0]

    def pattern_out(self, seat: int, taken: list[int]) -> int | None:
        """The card ``seat`` discards going out (-1: none), or None: his hand less one
        allowed card (the lowest-valued; ties: the higher kind) is exactly the pattern."""
        t = self.t
        kinds = set(self.hands[seat])
        high = t.meld_rules.layout == "high"
        if not t.must_discard and pat.fits(kinds, t.pattern, high):
            return -1
        outs = [k for k in self.allowed(seat, taken) if pat.fits(kinds - {k}, t.pattern, high)]
        return min(outs, key=lambda k: (t.values[k], -k)) if outs else None

    def pattern_turn(self, seat: int, taken: list[int]) -> int:
        """Go out if ``seat`` can (the runs go down, ``pattern_runs``), returning the card to
        discard (-1: none); else greedy's discard (docs/bots.md): of the allowed cards
        outside the cover (all allowed cards when none is), the one with the fewest
        connections, ties to the higher value, then the higher kind (random: a uniform one);
        once the stock was rebuilt this hand, first, for every bot, a draw of the bots'
        stream: 1 in ``BREAK_ODDS`` discards a uniform allowed card of the cover (of all
        allowed cards when none is) instead."""
        t = self.t
        out = self.pattern_out(seat, taken)
        random = self.bots[seat] == "random"
        if out is not None and (not random or self.coin()):  # random goes out on a coin
            rest = set(self.hands[seat]) - {out}
            for run in pattern_runs(rest, t.pattern, t.meld_rules.layout):
                for k in run:
                    self.take(seat, k)
                    self.laid.append(k)
                lo = arr.positions(t.meld_rules.layout).index(rank_of(run[0]))
                self.melds.append(TableMeld("run", seat, lo=lo, slots=run, suit=suit_of(run[0])))
                self.log(E_MELD, seat, len(self.melds) - 1, 0, sorted(run))
            return out
        kinds = set(self.hands[seat])
        allowed = self.allowed(seat, taken)
        _, kept = self.cover(kinds)
        if self.rebuilds > 0 and self.bots_rng.below(BREAK_ODDS) == 0:  # every bot
            keep = [k for k in allowed if k in kept] or allowed
            return keep[self.bots_rng.below(len(keep))]
        pool = [k for k in allowed if k not in kept] or allowed
        if random:  # a uniform card of the pool
            return pool[self.bots_rng.below(len(pool))]
        layout = t.meld_rules.layout
        return min(pool, key=lambda k: (connections(kinds, k, layout), -t.values[k], -k))

    # ---- Continental's pattern set (§3.11, §2B.14; docs/bots.md "... Continental")
    def wild_hand(self, seat: int) -> tuple[frozenset[int], int]:
        """The kinds and the wild cards the cover is asked about: the hand's kinds (one copy
        each) and its jokers; under deuces wild its 2s (every copy) count as wild cards with
        the jokers, not as kinds."""
        hand = self.hands[seat]
        kinds = frozenset(k for k in hand if k != JOKER)
        wilds = hand[JOKER]
        if self.t.deuces:
            wilds += sum(n for k, n in hand.items() if k != JOKER and rank_of(k) == DEUCE_RANK)
            kinds = frozenset(k for k in kinds if rank_of(k) != DEUCE_RANK)
        return kinds, wilds

    def wild_wants(self, seat: int, top: int) -> bool:
        """Greedy takes a joker (under deuces wild, a 2) always, a natural card when it makes
        the cover larger; random on a coin."""
        if self.bots[seat] == "random":
            return self.coin()
        t = self.t
        if top == JOKER or (t.deuces and rank_of(top) == DEUCE_RANK):
            return True
        kinds, wilds = self.wild_hand(seat)
        layout = t.meld_rules.layout
        now = wild_cover(kinds, wilds, t.alternatives, layout)[0]
        return wild_cover(kinds | {top}, wilds, t.alternatives, layout)[0] > now

    def wild_fit(self, seat: int, spares: list[int]) -> tuple[int, list[WildRun]] | None:
        """The hand's fit: (-1, runs) when the whole hand fits; else (the lowest kind of
        ``spares`` whose discard leaves a fit, its runs); None: no fit."""
        t = self.t
        hand = self.hands[seat]
        nat = Counter({k: n for k, n in hand.items() if k != JOKER})
        jokers = hand[JOKER]
        size = sum(t.alternatives[0])
        layout = t.meld_rules.layout
        if sum(hand.values()) == size:
            runs = wild_search(nat, jokers, t.alternatives, layout, t.deuces)
            return None if runs is None else (-1, runs)
        if sum(hand.values()) != size + 1:
            return None
        wilds = jokers + (
            sum(n for k, n in nat.items() if rank_of(k) == DEUCE_RANK) if t.deuces else 0
        )
        alone = alone_kinds(nat, wilds, layout, t.deuces)
        if len(alone) > 1 or any(nat[k] > 1 for k in alone):
            return None
        for k in sorted(spares):
            if alone and k not in alone:
                continue
            nat[k] -= 1
            rest = +nat
            wild = wilds - (1 if t.deuces and rank_of(k) == DEUCE_RANK else 0)
            runs = None  # a card no run could hold: no fit (the search would find none)
            if not alone_kinds(rest, wild, layout, t.deuces):
                runs = wild_search(rest, jokers, t.alternatives, layout, t.deuces)
            nat[k] += 1
            if runs is not None:
                return k, runs
        return None

    def wild_lay(self, seat: int, card: int) -> bool:
        """Lay the runs of the hand (less ``card``; -1: the whole hand) down, when it fits."""
        found = self.wild_fit(seat, [card] if card >= 0 else [])
        if found is None:
            return False
        for run in found[1]:
            for k in run.cards:
                self.take(seat, k)
            for _ in range(run.jokers):
                self.take(seat, JOKER)
            slots = []  # not read again: the hand is over
            self.melds.append(TableMeld("run", seat, lo=run.lo, slots=slots, suit=run.suit))
            self.log(
                E_MELD, seat, len(self.melds) - 1, run.wild, (*run.cards,) + (JOKER,) * run.jokers
            )
        self.out_runs = found[1]
        return True

    def wild_turn(self, seat: int, taken: list[int]) -> int:
        """Go out if ``seat`` can: the lowest allowed kind whose discard leaves a fit (under
        deuces wild a kind other than a 2 when one does), the runs going down
        (``wild_search``); else greedy's discard: Nowrang's, with a kind held twice outside the
        cover and, under deuces wild, every 2 in it."""
        t = self.t
        allowed = self.allowed(seat, taken)
        found = self.wild_fit(seat, allowed)
        random = self.bots[seat] == "random"
        if found is not None and (not random or self.coin()):  # random goes out on a coin
            out = found[0]
            if t.deuces and rank_of(out) == DEUCE_RANK:
                others = [k for k in allowed if rank_of(k) != DEUCE_RANK]
                other = self.wild_fit(seat, others) if others else None
                if other is not None:
                    out = other[0]
            assert self.wild_lay(seat, out)
            return out
        hand = self.hands[seat]
        kinds, wilds = self.wild_hand(seat)
        layout = t.meld_rules.layout
        _, kept = wild_cover(kinds, wilds, t.alternatives, layout)
        kept = {k for k in kept if hand[k] < 2}
        if t.deuces:
            kept |= {k for k in hand if k != JOKER and rank_of(k) == DEUCE_RANK}
        if self.rebuilds > 0 and self.bots_rng.below(BREAK_ODDS) == 0:  # every bot
            keep = [k for k in allowed if k in kept] or allowed
            return keep[self.bots_rng.below(len(keep))]
        pool = [k for k in allowed if k not in kept] or allowed
        if random:  # a uniform card of the pool
            return pool[self.bots_rng.below(len(pool))]
        naturals = {k for k in hand if k != JOKER}
        return min(pool, key=lambda k: (connections(naturals, k, layout), -t.values[k], -k))

    def continental_pay(self, winner: int) -> int:
        """What each other player pays the winner (§3.11, §2J, §2B.14): 1, 2 a joker in his
        runs, 1 a wild 2; the quick bonus 10 out before drawing, 7 after one draw; the special
        bonus 10 for no wild card, 10 for runs all of one suit."""
        t = self.t
        jokers = sum(r.jokers for r in self.out_runs)
        deuces = sum(r.deuces for r in self.out_runs)
        pay = 1 + 2 * jokers + deuces
        if t.quick_bonus:
            pay += {0: 10, 1: 7}.get(self.draws[winner], 0)
        if t.special_bonus:
            pay += 10 if jokers == deuces == 0 else 0
            pay += 10 if len({r.suit for r in self.out_runs}) == 1 else 0
        return pay

    # ---- the turn loop
    def draw(self, seat: int) -> tuple[bool, list[int]]:
        """``seat`` draws; returns (drew, the kinds taken from the discard pile)."""
        t = self.t
        top = self.discard[-1] if self.discard else -1
        n = len(self.discard)
        block = not self.stock and t.stock_exhaustion in BLOCK_RULES
        may_take = top >= 0
        if t.discard_draw == "top_plus_one" and not self.stock and n < 2:
            may_take = False  # no second card anywhere (§3.7 open point 2)
        at = -1
        if may_take:
            if not self.stock and not block and n < 2:
                at = n - 1
            elif t.discard_draw == "any_card":
                at = self.area_choice(seat)
            elif t.discard_draw == "top_plus_one":
                at = n - 1 if self.wants_pair(seat, top) else -1
            elif self.takes_top(seat, top):
                at = n - 1
        if at >= 0:
            forced = not self.stock and not block and n < 2
            card = self.discard.pop(at)
            self.give(seat, card)
            self.draws[seat] += 1
            self.log(E_DRAW_DISCARD, seat, card)
            taken = [card]
            if t.only_for_initial and not self.opened[seat] and not forced:
                self.took_unopened = True  # it goes into his initial meld this turn
            if t.discard_draw == "top_plus_one":
                if self.discard and (not self.stock or self.wants_second(seat, self.discard[-1])):
                    second = self.discard.pop()
                    self.give(seat, second)
                    self.log(E_DRAW_DISCARD, seat, second, 1)
                    taken.append(second)
                else:
                    self.draw_stock(seat, 1)
            return True, taken
        if block:
            if top >= 0:
                self.log(E_BLOCK, seat, top)
                self.blocked = True
            return False, []
        if not self.stock:
            if len(self.discard) < 2:
                return False, []
            self.rebuild(seat)
        self.draw_stock(seat, 0)
        return True, []

    def draw_stock(self, seat: int, second: int) -> None:
        card = self.pop_stock()
        self.give(seat, card)
        self.draws[seat] += 1
        self.stock_card = card
        if card != JOKER:
            if card in self.stock_seen[seat]:
                self.come_round = card
            self.stock_seen[seat].add(card)
        self.log(E_DRAW_STOCK, seat, card, second)

    def rebuild(self, seat: int) -> None:
        d = self.discard
        if self.t.stock_exhaustion == "shuffle_except_top":
            self.stock = d[:-1]
            self.discard = [d[-1]]
            self.ordered = False
        elif self.t.stock_exhaustion == "shuffle_all":  # §3.6: the whole area, its top up
            self.stock = list(d)
            self.ordered = False
            self.discard = [self.pop_stock()]
        else:  # turn_over: the oldest discard on top, turned up at once
            self.stock = d[::-1][:-1]
            self.discard = [d[0]]
            self.ordered = True
        self.rebuilds += 1
        self.log(E_REBUILD, seat, len(self.stock), self.discard[0])

    def play(self) -> tuple[int, int, list[Event]]:
        self.deal_cards()
        t = self.t
        if t.phom:
            return self.play_phom()
        if t.conquian:
            return self.play_conquian()
        if t.knock:
            return self.play_knock()
        if t.carousel:
            return self.play_carousel()
        seat = self.step(self.dealer)
        reason, winner = STALLED, -1
        if t.tonk:
            reason, winner = self.instant_tonk()
            if reason >= 0:
                return self.end(reason, winner)
            reason = STALLED
        while self.turns < t.turn_cap:
            self.come_round = -1
            self.open_turn, self.took_unopened, self.taken_melded = 0, False, False
            self.layoffs_turn = self.melds_turn = 0
            self.stock_card = -1
            if t.tonk and self.drops(seat, [], False):
                reason, winner = DROP, seat
                break
            if t.tonk and not self.stock:  # §2L.55: before the draw
                reason = REDEAL if t.stock_redeal else STOCK_OUT
                break
            if t.alternatives and self.draws[seat] == 0 and self.wild_lay(seat, -1):
                self.turns += 1  # §3.11: the dealt 15 cards fit, out before drawing
                reason, winner = WENT_OUT, seat
                break
            if t.eleven and self.turns == 0:
                drew, taken = True, []  # §3.15: the first player opens by discarding
            else:
                drew, taken = self.draw(seat)
            if not drew:
                if self.blocked:
                    self.turns += 1
                    reason, winner = BLOCK, self.block_winner()
                else:
                    reason = EXHAUSTED
                break
            must_play = t.stock_card_must_play and self.stock_card >= 0  # §2L.48
            tonk_random = t.tonk and self.bots[seat] == "random"
            stock_card = self.tonk_random_stock_card if tonk_random else self.play_stock_card
            if must_play and not stock_card(seat, self.stock_card):
                self.take(seat, self.stock_card)
                self.discard.append(self.stock_card)
                self.log(E_DISCARD, seat, self.stock_card)
                self.turns += 1  # discarding it ends the turn
                seat = self.step(seat)
                continue
            if t.alternatives:
                card, played = self.wild_turn(seat, taken), False
            elif t.pattern:
                card, played = self.pattern_turn(seat, taken), False
            elif t.all_at_once:
                card, played = self.concealed_turn(seat, taken), False
            elif tonk_random:
                plan, (taken, played) = -1, self.tonk_random_table(seat, taken)
            elif self.bots[seat] == "random":
                plan = -1
                taken, played = self.random_table(seat, taken)
            else:
                plan, taken, played = self.greedy_table(seat, taken)
            out = not self.hands[seat]
            self.discarded = False
            if not out and t.tonk and self.drops(seat, taken, True):
                reason, winner = DROP, seat
                break
            skip = t.layoff_skips_discard and self.layoffs_turn > 0  # §2L.52
            if not out and not skip:
                if tonk_random:
                    card = self.tonk_random_discard(seat, taken)
                elif self.bots[seat] == "random" and not t.all_at_once:
                    card = self.random_discard(seat, taken)
                elif not t.all_at_once:
                    card = self.greedy_discard(seat, taken, plan)
                self.take(seat, card)
                self.discard.append(card)
                self.log(E_DISCARD, seat, card)
                self.discarded = True
                out = not self.hands[seat]
            self.turns += 1
            if out:
                rummy = t.going_rummy and not self.played[seat]
                reason, winner = (WENT_RUMMY if rummy else WENT_OUT), seat
                break
            if played:
                self.played[seat] = True
            if t.call_rummy:
                caller = self.calls(seat)
                if caller >= 0:
                    reason, winner = WENT_OUT, caller
                    break
            seat = self.step(seat)
        return self.end(reason, winner)

    def end(self, reason: int, winner: int) -> tuple[int, int, list[Event]]:
        """Score the hand (a chip game: settle it, which decides a drop's end and winner)."""
        if self.t.phom:
            reason, winner, self.scores = self.settle_phom(reason, winner)
        elif self.t.tonk:
            reason, winner, self.scores = self.settle(reason, winner)
        elif self.t.knock:
            reason, winner, self.scores = self.settle_knock(reason, winner)
        elif self.t.carousel:
            reason, winner, self.scores = self.settle_carousel(reason, winner)
        self.log(E_END, winner, reason, 0)
        if self.t.conquian:  # the winner earns the hand's stake in tentos
            self.scores = [self.stake if p == winner else 0 for p in range(self.t.players)]
        elif not self.t.tonk and not self.t.phom and not self.t.knock and not self.t.carousel:
            self.scores = self.score(reason, winner)
        return reason, winner, self.events

    # ---- Carousel (RULES.md §3.16, §2M; docs/variants.md "Carousel", docs/bots.md
    # "Carousel: meld actions and the knock"): up to three draws, a meld action that ends
    # the turn, the table re-formed, the knock, the stock-out's final turns
    def play_carousel(self) -> tuple[int, int, list[Event]]:
        seat = self.step(self.dealer)
        reason, winner = STALLED, -1
        while self.turns < self.t.turn_cap:
            outcome = self.carousel_turn(seat)
            if self.stopped is not None:
                return -1, -1, self.events  # the comparison stops here (no ending)
            self.turns += 1
            if outcome:
                reason = {"out": WENT_OUT, "knock": KNOCK, "over": STOCK_OUT}[outcome]
                winner = -1 if outcome == "over" else seat
                break
            seat = self.step(seat)
        return self.end(reason, winner)

    def points(self, seat: int) -> int:
        """The value of ``seat``'s hand (§3.16: joker 25, J/Q/K 10, 2-10 pips, ace 1)."""
        return sum(self.t.values[k] * n for k, n in self.hands[seat].items())

    def carousel_turn(self, seat: int) -> str:
        """``seat``'s whole turn: "" (the round goes on), "out", "knock" or "over" (the
        last final turn was played)."""
        final = self.final_left > 0
        if final:
            self.log(E_FINAL, seat, self.final_left, 0)
        exact = False  # the last question found no action, and its search was not capped
        for step in range(3):
            drew = bool(self.stock)
            card = -1
            if drew:
                card = self.pop_stock()
                self.give(seat, card)
                self.log(E_DRAW_STOCK, seat, card, 1 if step > 0 else 0)
            if step == 2:
                break  # no meld after the third card
            if not drew and step > 0:
                continue  # a skipped draw: nothing changed, no question
            # after a question with no action the search is asked only for actions playing
            # the card just drawn (every other existed before: the same answer)
            must = card if exact and 0 <= card < JOKER else None
            melded, exact = self.carousel_meld(seat, must)
            if self.stopped is not None:
                return ""
            if melded:
                break
        if not self.hands[seat]:
            return "out"
        if final:
            self.final_left -= 1
            return "over" if self.final_left == 0 else ""
        points = self.points(seat)
        if points <= self.t.knock_limit and self.carousel_knocks(seat):
            self.log(E_KNOCK, seat, points, 0)
            return "knock"
        if not self.stock:  # final_turns (§2F.28): one more turn each, from the next player
            self.final_left = self.t.players
        return ""

    def carousel_knocks(self, seat: int) -> bool:
        """greedy always; careful when every opponent holds more cards; random on 1 in 2."""
        bot = self.bots[seat]
        if bot == "random":
            return self.bots_rng.below(2) == 0
        if bot == "careful":
            held = sum(self.hands[seat].values())
            return all(
                sum(self.hands[p].values()) > held for p in range(self.t.players) if p != seat
            )
        return True

    def unseen(self, seat: int, kind: int) -> int:
        """careful's count of the copies of ``kind`` it has not seen (its hand, the table's
        natural cards; Carousel has no discard pile)."""
        seen = self.hands[seat][kind] + sum(m.naturals().count(kind) for m in self.melds)
        return self.t.packs - min(seen, self.t.packs)

    def carousel_layoffs(self, seat: int, melds: tuple[arr.Meld, ...]) -> list[tuple[int, int]]:
        """The lay-offs after the hand's own melds: on each table meld in order that a
        natural card left in hand fits, the most valuable such card (ties: the lowest kind),
        one a meld, at most 15: (meld, card) pairs."""
        left = Counter(self.hands[seat])
        for meld in melds:
            left.subtract(meld.naturals)
        plan = []
        for m, meld in enumerate(self.melds):
            kinds = sorted(k for k, n in left.items() if n > 0 and k != JOKER)
            if len(plan) == 15 or not kinds:
                break
            fitting = [k for k in kinds if fits(self.t, meld, k)]
            if fitting:
                best = max(fitting, key=lambda k: (self.t.values[k], -k))
                left[best] -= 1
                plan.append((m, best))
        return plan

    def carousel_meld(self, seat: int, must: int | None) -> tuple[bool, bool]:
        """``seat``'s meld action now, if his bot makes one (docs/bots.md): returns (did he
        meld, was the question answered exactly: no capped search)."""
        own, melds = self.best(self.hands[seat])
        if own == 0:
            melds = ()
        if self.bots[seat] == "random":
            return self.carousel_random(seat, own, melds, must)
        plan = self.carousel_layoffs(seat, melds)
        own += sum(self.t.values[k] for _, k in plan)
        if own > 0 and own == self.points(seat):  # the whole hand: nothing plays more
            self.carousel_cheap(seat, melds, plan)
            return True, True
        found = self.carousel_search(seat, own, must)
        if self.stopped is not None:
            return False, False
        if found is not None:
            self.lay_table(seat, *found)
        elif own > 0:
            self.carousel_cheap(seat, melds, plan)
        else:
            return False, not self.capped
        return True, True

    def carousel_cheap(self, seat: int, melds, plan) -> None:
        for meld in melds:
            self.lay_down(seat, meld, [])
        for m, kind in plan:
            self.take(seat, kind)
            self.lay_off(seat, m, kind)

    def carousel_random(self, seat: int, own: int, melds, must) -> tuple[bool, bool]:
        """random: uniform among each meld of the hand's best arrangement, each natural kind
        of its hand that fits a table meld (one lay-off on the first it fits) and the table
        search's re-partition (when one plays a card)."""
        hand_melds = len(melds) if own > 0 else 0
        kinds = sorted(k for k in self.hands[seat] if k != JOKER)
        fitting = [k for k in kinds if any(fits(self.t, m, k) for m in self.melds)]
        found = self.carousel_search(seat, 0, must)
        if self.stopped is not None:
            return False, False
        n = hand_melds + len(fitting) + (found is not None)
        if n == 0:
            return False, not self.capped
        pick = self.bots_rng.below(n)
        if pick < hand_melds:
            self.lay_down(seat, melds[pick], [])
        elif pick - hand_melds < len(fitting):
            kind = fitting[pick - hand_melds]
            m = next(m for m, meld in enumerate(self.melds) if fits(self.t, meld, kind))
            self.take(seat, kind)
            self.lay_off(seat, m, kind)
        else:
            self.lay_table(seat, *found)
        return True, True

    def table_jokers(self) -> list[int]:
        """The cards the table's jokers stand for, meld by meld, lowest first."""
        declared = []
        for meld in self.melds:
            stands = sorted(meld.declared if meld.kind == "group" else stands_for(self.t, meld))
            declared += stands[: meld.n_jokers]
        return declared

    def carousel_search(self, seat: int, better_than: int, must: int | None):
        """A re-partition of the whole table with hand cards that plays more than
        ``better_than`` of ``seat``'s hand value, or None: the oracle's own
        (``tests.oracles.repartition.best_repartition``'s brute force: of those that play
        the most, the first in the engine's declared order, ``sim.engine.repartition``'s
        docstring), which must be the engine's too (the same melds in the same order, the
        same jokers freed; else the hand stops here: ``stopped``). Where the engine's search
        reached its frame cap or cut a card's candidates short, it returns the best it found,
        not the declared one: the oracle then plays the engine's answer, checked only (more
        than asked, at most every hand card in some meld of the whole pool). Either way the
        melds played are checked: legal, every table card melded again, each table joker
        kept or freed as §3.16 says, hand cards worth exactly what is played. A brute force
        over ``SEARCH_BUDGET`` positions stops the hand (``stopped = "large"``). ``must``:
        the engine's quick no only (after a question with no action, any action not playing
        the card drawn existed before), which the brute force does without."""
        hand = sorted(self.hands[seat].elements())
        table = sorted(k for meld in self.melds for k in meld.naturals())
        declared = self.table_jokers()
        capped, cut, gain, melds, freed = self.table_search(
            hand, table, declared, better_than, must
        )
        self.capped = capped  # the next question asks for the card drawn only when it was not
        capped = capped or cut  # cut: a card's candidates cut short (melds.MAX_CAND)
        self.capped_searches += capped
        self.searches += 1
        # what any action can play at most: the hand cards in some meld of the whole pool
        # (the table's jokers as their cards and wild)
        values = list(self.t.values)
        bound = rep.reach_bound(hand, table, declared, values, self.t.meld_rules)
        want = 0
        mine = None
        if capped:  # the best found within the cap: nothing, or more than asked, at most all
            ok = gain == 0 or better_than < gain <= bound
        else:
            if bound > better_than:  # else no action plays more: no search needed
                try:
                    mine = rep.best_repartition(
                        hand, table, declared, values, self.t.meld_rules,
                        budget=SEARCH_BUDGET, better_than=better_than, most=bound,
                    )  # fmt: skip
                except rep.TooLarge:
                    self.stopped = "large"
                    return None
            want = mine.gain if mine is not None else 0
            ok = gain == want
        if not ok:
            self.stopped = (
                f"the engine's table search{' (capped)' if capped else ''} plays {gain} of"
                f" seat {seat}'s hand value above {better_than}, the brute force {want} (hand"
                f" {cards_text(hand)}, table {cards_text(table)}, jokers declared"
                f" {cards_text(declared)})"
            )
            return None
        if gain == 0:
            return None
        if mine is not None:
            ours = [self.as_table_meld(m) for m in mine.melds]
            if ours != melds or mine.freed != freed:
                how = "another order of the same melds" if (
                    sorted(map(repr, ours)) == sorted(map(repr, melds)) and mine.freed == freed
                ) else "another re-partition"  # fmt: skip
                self.stopped = (
                    f"the engine's table search chose {melds} (freed {freed}), the declared"
                    f" order {ours} (freed {mine.freed}): {how}, both playing {gain} (hand"
                    f" {cards_text(hand)}, table {cards_text(table)}, jokers declared"
                    f" {cards_text(declared)})"
                )
                return None
            melds, freed = ours, mine.freed
            self.own_repartitions += 1
        problem = self.check_repartition(hand, table, declared, melds, freed, gain)
        if problem:
            whose = "the engine's" if mine is None else "the declared"
            self.stopped = f"{whose} re-partition {melds} (freed {freed}): {problem}"
            return None
        return melds, freed, declared

    def as_table_meld(self, meld: arr.Meld):
        """An ``arrangement.Meld`` of the brute force as ``carousel_search`` plays it:
        ``("group", rank, naturals, wild jokers)`` or ``("run", (suit, first position,
        slots), naturals, wild jokers)``, the naturals sorted (a kept table joker among
        them as its card)."""
        naturals = sorted(meld.naturals)
        if meld.kind == "group":
            return ("group", meld.ranks[0], naturals, meld.jokers)
        digits = meld.key[3:]
        slots = [JOKER if d == arr.JOKER_DIGIT else r * N_SUITS + d
                 for r, d in zip(meld.ranks, digits, strict=True)]  # fmt: skip
        return ("run", (suit_of(naturals[0]), meld.key[1], slots), naturals, meld.jokers)

    def check_repartition(self, hand, table, declared, melds, freed, gain) -> str:
        """What is wrong with the engine's re-partition (its melds with every table joker
        as a natural copy of its card when kept, wild when freed), or ""."""
        ace = self.t.meld_rules.layout
        natural: Counter = Counter()
        wild = 0
        for kind, key, naturals, jokers in melds:
            natural.update(naturals)
            wild += jokers
            if kind == "group":
                suits = [suit_of(k) for k in naturals]
                if len(set(suits)) != len(suits) or not 3 <= len(naturals) + jokers <= N_SUITS:
                    return f"the group {naturals}+{jokers} is not legal"
                if any(rank_of(k) != key for k in naturals):
                    return f"the group {naturals} is not of one rank"
            else:
                suit, lo, slots = key
                if not window_ok(ace, lo, len(slots)):
                    return f"the run at {lo} of {len(slots)} is not legal"
                for i, k in enumerate(slots):
                    if k != JOKER and (rank_at(ace, lo + i) != rank_of(k) or suit_of(k) != suit):
                        return f"the run {slots} at {lo} is not legal"
        kept = Counter(d for j, d in enumerate(declared) if not (freed >> j) & 1)
        out = Counter(d for j, d in enumerate(declared) if (freed >> j) & 1)
        if Counter(table) + kept - natural:
            return "a table card is not melded again"
        for d, n in out.items():
            if natural[d] < kept[d] + max(Counter(table)[d], n):
                return f"a joker declared {cards_text([d])} is freed without its card"
        played = natural - Counter(table) - kept
        hand_jokers = hand.count(JOKER)
        played_jokers = wild - sum(out.values())
        if played - Counter(hand) or not 0 <= played_jokers <= hand_jokers:
            return "it plays cards the hand does not hold"
        value = sum(self.t.values[k] * n for k, n in played.items())
        if value + played_jokers * self.t.values[JOKER] != gain:
            return f"it plays {value} + {played_jokers} jokers, not {gain}"
        return ""

    def lay_table(self, seat: int, melds, freed: int, declared: list[int]) -> None:
        """``seat`` takes the table's melds up (into his hand, for a moment) and lays the
        re-partition down, meld by meld: each kept table joker back as a joker in the first
        meld holding its card, declared again as that card in a group; the other jokers
        declared by the bot (``declare_jokers``)."""
        before = Counter(self.hands[seat])
        held = sum(before.values())
        at = len(self.events)
        self.log(E_REARRANGE, seat, len(self.melds), 0)
        for meld in self.melds:
            for k in meld.naturals():
                self.give(seat, k)
            for _ in range(meld.n_jokers):
                self.give(seat, JOKER)
        self.melds = []
        new = []
        for kind, key, naturals, jokers in melds:
            if kind == "group":
                counts = [sum(1 for k in naturals if suit_of(k) == s) for s in range(N_SUITS)]
                new.append(TableMeld("group", seat, rank=key, counts=counts, jokers=jokers))
            else:
                suit, lo, slots = key
                new.append(TableMeld("run", seat, lo=lo, slots=list(slots), suit=suit))
        kept_in: list[list[int]] = [[] for _ in new]
        for j, d in enumerate(declared):
            if (freed >> j) & 1:
                continue
            for i, meld in enumerate(new):
                if d not in meld.naturals():
                    continue
                if meld.kind == "group":
                    meld.counts[suit_of(d)] -= 1
                    meld.jokers += 1
                else:
                    meld.slots[meld.slots.index(d)] = JOKER
                kept_in[i].append(d)
                break
        for i, meld in enumerate(new):
            cards = meld.naturals()
            for k in cards:
                self.take(seat, k)
            for _ in range(meld.n_jokers):
                self.take(seat, JOKER)
            self.melds.append(meld)
            count = Counter(cards)
            laid = []
            for copy in range(max(count.values(), default=0)):
                laid += sorted(k for k, n in count.items() if n > copy)
            self.log(E_MELD, seat, i, 0, laid + [JOKER] * meld.n_jokers)
            if meld.kind == "group":
                for d in sorted(kept_in[i]):
                    meld.declared.add(d)
                    self.log(E_DECLARE, seat, i, d)
            if meld.n_jokers:
                self.declare_jokers(seat, i)
        after = self.hands[seat]
        cards = []
        for layer in range(4):
            cards += sorted(k for k in before if k != JOKER and before[k] > layer >= after[k])
        self.events[at] = (E_REARRANGE, seat, self.events[at][2], held - sum(after.values()),
                           tuple(cards))  # fmt: skip

    def settle_carousel(self, reason: int, winner: int) -> tuple[int, int, list[int]]:
        """The round's scores (``tests.oracles.carousel``, written from RULES.md §3.16);
        a knock the knocker did not win is ``undercut``; several winners: winner -1."""
        points = [self.points(p) for p in range(self.t.players)]
        how = {KNOCK: car.KNOCK, WENT_OUT: car.OUT, STOCK_OUT: car.STOCK_OUT}.get(reason)
        if how is None:
            return reason, -1, [0] * self.t.players  # stalled: no score
        ender = None if reason == STOCK_OUT else winner
        winners = car.round_winners(points, ender, how)
        scores = car.round_scores(points, ender, how)
        if reason == KNOCK and winner not in winners:
            reason = UNDERCUT
        return reason, winners[0] if len(winners) == 1 else -1, scores

    # ---- the knock family (RULES.md §3.10, §3.17, §3.20, §2I; docs/bots.md "The knock
    # family"): melds stay in hand, a knock ends the turns, the showdown scores the hand
    def arranged(self, hand: Counter) -> tuple[int, Counter, tuple[arr.Meld, ...]]:
        """(deadwood, melded cards, melds in order) of ``hand``'s best arrangement."""
        return knock_arrangement(self.t, tuple(sorted(hand.elements())))

    def limit(self) -> int | None:
        """The hand's knock limit (None: unlimited): Oklahoma's is the upcard's value, an
        ace 0 (gin only), a 10 or a picture 10 (§2I.32, §3.20 open point 4: it stays)."""
        if self.t.knock_limit == -1:
            return min(rank_of(self.upcard) + 1, 10) if rank_of(self.upcard) > 0 else 0
        return self.t.knock_limit

    def bot_limit(self) -> int:
        """The most deadwood greedy knocks with: the limit, 10 where there is none."""
        limit = self.limit()
        return 10 if limit is None else limit

    def knock_discard(self, seat: int, hand: Counter, taken: int, avoid: bool) -> tuple[int, int]:
        """(card, deadwood after it): the highest-valued card outside the best arrangement
        of ``hand``, never ``taken``; among equal values (``avoid``, greedy's) one in no
        partial meld, then the higher kind; with none outside the card whose removal leaves
        the least deadwood (ties: the higher kind)."""
        dw, melded, _ = self.arranged(hand)
        outside = [k for k in hand if hand[k] > melded[k] and k != taken]
        if outside:

            def key(k: int) -> tuple:
                loose = avoid and not self.partial_in(hand, k)
                return (self.t.values[k], loose, k)

            card = max(outside, key=key)
            return card, dw - self.t.values[card]
        best = None
        for k in sorted(hand):
            if k == taken:
                continue
            rest = Counter(hand)
            rest[k] -= 1
            left, _, _ = self.arranged(+rest)
            if best is None or left <= best[1]:
                best = (k, left)
        assert best is not None
        return best

    def partial_in(self, hand: Counter, kind: int) -> bool:
        """Is ``kind`` in a partial meld of ``hand``: another card of its rank, or one of
        its suit at most two ranks away?"""
        r, s = rank_of(kind), suit_of(kind)
        for k in hand:
            if k == kind:
                continue
            if rank_of(k) == r:
                return True
            if suit_of(k) == s and abs(rank_of(k) - r) <= 2:  # the ace low (§3.17)
                return True
        return False

    def knock_wants(self, seat: int, top: int) -> bool:
        """Does ``seat`` take the offered card? Greedy when its deadwood after its best
        discard then (not that card) is lower than its deadwood now; simple when the card
        is in the best arrangement of the hand with it, or when that discard would leave
        it within its limit; random on a coin."""
        bot = self.bots[seat]
        if bot == "random":
            return self.coin()
        hand = self.hands[seat]
        with_card = Counter(hand)
        with_card[top] += 1
        if bot == "simple" and self.arranged(with_card)[1][top] > 0:
            return True
        _, after = self.knock_discard(seat, with_card, top, False)
        if bot == "simple":
            return after <= self.bot_limit()
        now, _, _ = self.arranged(hand)
        return after < now

    def knock_turn(self, seat: int, taken: int) -> tuple[int, int, bool]:
        """(discard, deadwood left, knock): greedy and simple discard by ``knock_discard``
        (greedy with its partial-meld tie-break) and knock when the deadwood left is within
        their limit;
        random discards a uniform allowed card (kind order) and, when the deadwood left is
        within the hand's limit (any, where there is none), knocks on a coin."""
        hand = self.hands[seat]
        bot = self.bots[seat]
        if bot == "random":
            allowed = sorted(k for k in hand if k != taken)
            card = allowed[self.bots_rng.below(len(allowed))]
            rest = Counter(hand)
            rest[card] -= 1
            left, _, _ = self.arranged(+rest)
            limit = self.limit()
            return card, left, (limit is None or left <= limit) and self.coin()
        card, left = self.knock_discard(seat, hand, taken, bot == "greedy")
        return card, left, left <= self.bot_limit()

    def upcard_offer(self, first: int) -> tuple[int, list[int]]:
        """Gin's opening (§3.17): the non-dealer ``first``, then the dealer, may take the
        upcard; each who lets it go spends a turn (``E_DECLINE_UPCARD``); if both do, the
        non-dealer draws from the stock. Returns (who plays the turn, cards taken)."""
        top = self.discard[-1]
        for seat in (first, self.step(first)):
            if self.knock_wants(seat, top):
                self.discard.pop()
                self.give(seat, top)
                self.log(E_DRAW_DISCARD, seat, top)
                return seat, [top]
            self.log(E_DECLINE_UPCARD, seat, top)
            self.turns += 1
        self.draw_stock(first, 0)
        return first, []

    def play_knock(self) -> tuple[int, int, list[Event]]:
        """The turns of a knock-family hand: draw, discard, knock or not (module docstring)."""
        t = self.t
        seat = self.step(self.dealer)
        reason, winner = STALLED, -1
        while self.turns < t.turn_cap:
            if t.knock == "gin" and self.turns == 0 and self.discard:
                seat, taken = self.upcard_offer(seat)
            else:
                drew, taken = self.draw(seat)
                if not drew:
                    reason = EXHAUSTED
                    break
            card, left, knocks = self.knock_turn(seat, taken[0] if taken else -1)
            self.take(seat, card)
            self.discard.append(card)
            self.log(E_DISCARD, seat, card)
            self.turns += 1
            if knocks:
                limit = self.limit()
                assert limit is None or left <= limit
                self.log(E_KNOCK, seat, left)
                reason, winner = KNOCK, seat
                break
            if t.stock_exhaustion == "void_at_two" and len(self.stock) <= 2:
                reason = VOID  # §3.17: two stock cards left and no knock
                break
            seat = self.step(seat)
        return self.end(reason, winner)

    def showdown(self, knocker: int) -> None:
        """The knocker lays his best arrangement down and shows his deadwood; each other
        player from his left shows his, under ``layoff_target = any`` (gin) unless the
        knocker went gin after laying off on the knocker's melds (``best_layoffs``)."""
        t = self.t
        dw, _, melds = self.arranged(self.hands[knocker])
        for m in melds:
            for k in m.naturals:
                self.take(knocker, k)
            self.melds.append(meld_from(m, knocker, t))
            self.log(E_MELD, knocker, len(self.melds) - 1, 0, meld_cards(m))
        self.deadwood_shown[knocker] = dw
        self.log(E_SHOW, knocker, dw)
        for off in range(1, t.players):
            p = (knocker + off) % t.players
            if p == self.sitter:
                continue
            hand = self.hands[p]
            laid: list[int] = []
            if t.defender_lays_off and dw > 0:
                laid = self.best_layoffs(hand)
                for m, k in self.layoff_order(laid):
                    self.take(p, k)
                    lay_off_on(self.melds[m], k, t.meld_rules.layout)
                    self.log(E_LAYOFF, p, m, k)
            d, _, _ = self.arranged(self.hands[p])
            self.deadwood_shown[p] = d
            self.log(E_SHOW, p, d, 0, sorted(laid))

    def can_lay_all(self, cards: frozenset[int], melds: tuple) -> bool:
        """Can every card of ``cards`` be laid off on ``melds`` one at a time, in some order
        and on some meld each (brute force over both)?"""
        if not cards:
            return True
        for k in sorted(cards):
            for i, m in enumerate(melds):
                if fits(self.t, m, k):
                    grown = copy_meld(m)
                    lay_off_on(grown, k, self.t.meld_rules.layout)
                    rest = (*melds[:i], grown, *melds[i + 1 :])
                    if self.can_lay_all(cards - {k}, rest):
                        return True
        return False

    def best_layoffs(self, hand: Counter) -> list[int]:
        """The cards a defender lays off: of the sets that can be laid off, one that leaves
        him the least deadwood (the best arrangement of the cards he keeps); ties: the
        fewest cards, then the smallest as a mask (bit k = kind k), so none when nothing
        gains (docs/bots.md, sim/engine/layoffs.py's declared tie-break)."""
        melds = tuple(self.melds)
        # a card that no sequence of lay-offs could ever place is no use trying
        ever = [
            k
            for k in sorted(hand)
            if any(
                rank_of(k) == m.rank if m.kind == "group" else suit_of(k) == m.suit for m in melds
            )
        ]
        best = (self.arranged(hand)[0], 0, 0, ())
        for n in range(1, len(ever) + 1):
            for subset in itertools.combinations(ever, n):
                if not self.can_lay_all(frozenset(subset), melds):
                    continue
                rest = Counter(hand)
                rest.subtract(subset)
                dw, _, _ = self.arranged(+rest)
                key = (dw, n, sum(1 << k for k in subset), subset)
                if key < best:
                    best = key
        return list(best[3])

    def layoff_order(self, cards: list[int]) -> list[tuple[int, int]]:
        """The order the lay-offs are played in (sim/engine/layoffs.py ``plan_layoffs``,
        the docs being silent): pass after pass, lowest kind first, each card that fits now
        goes on the first run that takes it, else the first group."""
        plan: list[tuple[int, int]] = []
        left = sorted(cards)
        probe = [copy_meld(m) for m in self.melds]
        changed = True
        while changed and left:
            changed = False
            for k in list(left):
                runs = [i for i, m in enumerate(probe) if m.kind == "run" and fits(self.t, m, k)]
                groups = [
                    i for i, m in enumerate(probe) if m.kind == "group" and fits(self.t, m, k)
                ]
                target = (runs or groups or [-1])[0]
                if target < 0:
                    continue
                lay_off_on(probe[target], k, self.t.meld_rules.layout)
                plan.append((target, k))
                left.remove(k)
                changed = True
        assert not left, f"a chosen lay-off set the passes cannot place: {left}"
        return plan

    def settle_knock(self, reason: int, winner: int) -> tuple[int, int, list[int]]:
        """A knock's showdown and scores (gin §3.17, §3.20; knock rummy §3.10); any other
        ending scores nothing."""
        scores = [0] * self.t.players
        if reason != KNOCK:
            return reason, winner, scores
        knocker = winner
        self.showdown(knocker)
        if self.t.knock == "gin":
            return self.score_gin(knocker, scores)
        return self.score_knock_rummy(knocker, scores)

    def score_gin(self, knocker: int, scores: list[int]) -> tuple[int, int, list[int]]:
        """K the knocker's deadwood, D the defender's after his lay-offs: gin (K = 0) is the
        gin bonus + D and never undercut; K < D: D - K; else the defender undercuts: K - D
        + the undercut bonus. A spade upcard doubles it all (``spade_double``); Oklahoma's
        side bonuses: gin 40, undercut 20, doubled on a spade upcard (§2I.38-39)."""
        t = self.t
        defender = self.step(knocker)
        k, d = self.deadwood_shown[knocker], self.deadwood_shown[defender]
        if k == 0:
            reason, winner, points, side = GIN, knocker, t.gin_bonus + d, 40
        elif k < d:
            reason, winner, points, side = KNOCK, knocker, d - k, 0
        else:
            reason, winner, points, side = UNDERCUT, defender, k - d + t.undercut_bonus, 20
        spade = suit_of(self.upcard) == 0
        scores[winner] = points * (2 if spade and t.spade_double else 1)
        if t.oklahoma_extra:
            self.side[winner] = side * (2 if spade else 1)
        return reason, winner, scores

    def score_knock_rummy(self, knocker: int, scores: list[int]) -> tuple[int, int, list[int]]:
        """§3.10: the knocker strictly lowest (or at 0, whoever else is) takes the
        differences (and 25 from each opponent at 0: rum); an opponent who ties him wins
        the differences; opponents strictly lower take the differences and 10 from the
        knocker, who loses 10, and 25 from each opponent at 0; tied winners split floor
        (open points 2, 3, 4)."""
        n = self.t.players
        dw = self.deadwood_shown
        k = dw[knocker]
        low = min(dw[p] for p in range(n) if p != knocker)
        if k < low or k == 0:
            scores[knocker] = sum(d - k for d in dw) + (25 * (n - 1) if k == 0 else 0)
            return (GIN if k == 0 else KNOCK), knocker, scores
        winners = [p for p in range(n) if p != knocker and dw[p] == low]
        pot = sum(dw[p] - low for p in range(n) if p not in winners)
        if low < k:
            pot += 10
            scores[knocker] = -10
        if low == 0:
            pot += 25 * (n - 1)
        for p in winners:
            scores[p] = pot // len(winners)
        return UNDERCUT, (winners[0] if len(winners) == 1 else -1), scores

    # ---- Tonk (RULES.md §3.22, docs/variants.md "Tonk", docs/bots.md "Tonk")
    def tonk_rank(self, total: int) -> int:
        """0: the dealt total is no instant tonk; a higher rank beats a lower one."""
        t = self.t
        if t.super_tonk and total <= 9:
            return 100  # a super tonk outranks every tonk
        if t.tonk_instant in ("49_50", "47_50"):
            return int(total in (int(t.tonk_instant[:2]), 50))
        if t.tonk_instant == "50":
            return int(total == 50)
        if t.tonk_instant in ("le15", "le11"):
            return int(total <= int(t.tonk_instant[2:]))
        order = {49: 1, 50: 2}  # ranked: 49 < 50 < 15 < 14 < ... (lower beats higher)
        return order.get(total, 3 + 15 - total if total <= 15 else 0)

    def instant_tonk(self) -> tuple[int, int]:
        """After the deal: (TONK, the tonk), (REDEAL, -1) for tied best tonks, or (-1, -1)."""
        left = self.left()
        ranks = [self.tonk_rank(v) for v in left]
        best = max(ranks)
        if best == 0:
            return -1, -1
        tied = ranks.count(best) > 1
        for p, r in enumerate(ranks):
            if r > 0:
                self.log(E_TONK, p, left[p], int(tied and r == best))
        return (REDEAL, -1) if tied else (TONK, ranks.index(best))

    def drops(self, seat: int, taken: list[int], after_draw: bool) -> bool:
        """Greedy's drop (docs/bots.md): not with one card left that may be discarded after
        its draw; else when its total is at most 3 points per card of the opponent holding
        the fewest. ``taken``: the cards taken from the discard pile this turn. Random's:
        one chance in 8 each time it is asked (``below(8)`` is 0)."""
        total = self.left()[seat]
        if self.bots[seat] == "random":
            if self.bots_rng.below(8) != 0:
                return False
        else:
            if after_draw and sum(self.hands[seat].values()) == 1 and self.allowed(seat, taken):
                return False
            fewest = min(sum(h.values()) for p, h in enumerate(self.hands) if p != seat)
            if total > 3 * fewest:
                return False
        self.log(E_DROP, seat, total)
        self.turns += 1
        return True

    def play_stock_card(self, seat: int, card: int) -> bool:
        """Greedy under ``tonk_stock_card_must_play`` (§2L.48): lay the card just drawn from
        the stock off on the first meld that takes it, else lay down its best arrangement
        that melds it; False when neither leaves the turn an end (the card is discarded)."""
        hand = self.hands[seat]
        m = self.first_fit(card, seat)
        rest = Counter(hand)
        rest[card] -= 1
        if m >= 0 and self.can_end(+rest, []):
            self.take(seat, card)
            self.lay_off(seat, m, card)
            return True
        _, melds = self.best(hand, 0, card)
        left = Counter(hand)
        for meld in melds:
            left.subtract(meld.naturals)
        if not melds or not self.can_end(+left, []):
            return False
        for meld in melds:
            self.lay_down(seat, meld, [])
        return True

    # ---- Tonk's random (docs/bots.md "random" and "Tonk: the drop")
    def tonk_melds_through(self, seat: int, card: int, lowest: bool) -> list[arr.Meld]:
        """The new melds of ``seat``'s hand through ``card`` (under ``lowest`` only those
        whose lowest natural kind it is) after which his turn can still end, in the listed
        order: groups before runs, a group by its suit counts (spades first, fewer first),
        a run by its window's first position, then its length."""
        hand = self.hands[seat]
        melds = []
        for m in arr.all_melds(sorted(hand.elements()), self.t.meld_rules):
            if card not in m.naturals or (lowest and min(m.naturals) != card):
                continue
            rest = Counter(hand)
            rest.subtract(m.naturals)
            if self.can_end(+rest, self.taken_now):
                melds.append(m)
        return sorted(melds, key=lambda m: m.key)

    def tonk_actions(self, seat: int) -> list[tuple]:
        """Random's table actions, in order: each new meld (``("meld", meld)``) under its
        lowest natural kind, lowest first, when a meld may go down now; then each lay-off
        (``("layoff", row, kind)``) of a natural kind held, lowest first, on each table meld
        it fits and ``seat`` may lay off on, first laid first, when a lay-off may go now;
        only those after which the turn can still end."""
        t, hand = self.t, self.hands[seat]
        actions: list[tuple] = []
        if not (t.meld_limit and self.melds_turn >= t.meld_limit):
            for c in sorted(k for k in hand if k != JOKER):
                actions += [("meld", m) for m in self.tonk_melds_through(seat, c, True)]
        if t.one_layoff and self.layoffs_turn:
            return actions  # tonk_one_layoff_per_turn (§2L.51)
        for k in sorted(k for k in hand if k != JOKER):
            rest = Counter(hand)
            rest[k] -= 1
            if not self.can_end(+rest, self.taken_now):
                continue
            for row, meld in enumerate(self.melds):
                if fits(t, meld, k) and self.may_lay_off_on(seat, meld):
                    actions.append(("layoff", row, k))
        return actions

    def tonk_random_table(self, seat: int, taken: list[int]) -> tuple[list[int], bool]:
        """Random's table play: while it holds cards, one draw ``below(n + 1)`` over its
        ``n`` actions and stopping (the last); under ``tonk_meld_immediately``, while it has
        a new meld, ``below(melds)`` over those alone (it may not stop). Returns (the taken
        cards not yet played, played a card)."""
        played = False
        while self.hands[seat]:
            self.taken_now = taken
            actions = self.tonk_actions(seat)
            melds = sum(1 for a in actions if a[0] == "meld")
            n, stop = len(actions), 1
            if self.t.meld_at_once and melds:
                n, stop = melds, 0
            pick = self.bots_rng.below(n + stop)
            if pick == n:
                break
            action = actions[pick]
            if action[0] == "meld":
                taken = self.lay_down(seat, action[1], taken)
            else:
                _, row, kind = action
                self.take(seat, kind)
                self.lay_off(seat, row, kind)
                taken = self.spend(taken, (kind,))
            played = True
        self.taken_now = []
        return taken, played

    def tonk_random_stock_card(self, seat: int, card: int) -> bool:
        """Random under ``tonk_stock_card_must_play`` (§2L.48): one draw over each new meld
        through ``card`` that it may lay down (listed as ``tonk_melds_through``), laying
        ``card`` off on the first meld that takes it (when one does and the turn can still
        end) and discarding it; False: it is discarded."""
        self.taken_now = []
        rest = Counter(self.hands[seat])
        rest[card] -= 1
        row = self.first_fit(card, seat)
        layoff = row >= 0 and self.can_end(+rest, [])
        melds = self.tonk_melds_through(seat, card, False)
        pick = self.bots_rng.below(len(melds) + (2 if layoff else 1))
        if pick < len(melds):
            self.lay_down(seat, melds[pick], [])
            return True
        if layoff and pick == len(melds):
            self.take(seat, card)
            self.lay_off(seat, row, card)
            return True
        return False

    def tonk_random_discard(self, seat: int, taken: list[int]) -> int:
        """Random's discard: a uniform allowed kind (kind order)."""
        allowed = self.allowed(seat, taken)
        return allowed[self.bots_rng.below(len(allowed))]

    def settle(self, reason: int, winner: int) -> tuple[int, int, list[int]]:
        """The hand's chips (docs/variants.md "Tonk"): (end reason, winner, chips)."""
        t = self.t
        chips = [0] * t.players
        left = self.left()
        low = min(left)
        lowest = [p for p in range(t.players) if left[p] == low]

        def pay(payer: int, payee: int, n: int) -> None:
            chips[payer] -= n
            chips[payee] += n

        def lowest_collect() -> None:
            for p in lowest:
                for q in range(t.players):
                    if q not in lowest:
                        pay(q, p, 1)

        if reason == TONK:
            each = 3 if t.super_tonk and left[winner] <= 9 else 2
            for p in range(t.players):
                if p != winner:
                    pay(p, winner, each)
        elif reason == WENT_OUT:
            each = 1 if self.discarded or t.flat_out else 2
            for p in range(t.players):
                if p != winner:
                    pay(p, winner, each)
        elif reason == STOCK_OUT:
            lowest_collect()
            winner = lowest[0] if len(lowest) == 1 else -1
        elif reason == DROP:
            d = winner
            if lowest == [d]:
                for p in range(t.players):
                    if p != d:
                        pay(p, d, 1)
            elif d in lowest:
                reason = CAUGHT
                others = [p for p in lowest if p != d]
                for p in others:
                    pay(d, p, 3)
                    for q in range(t.players):
                        if q not in lowest:
                            pay(q, p, 1)
                winner = others[0] if len(others) == 1 else -1
            else:
                reason = CAUGHT
                for p in range(t.players):
                    if p == d:
                        continue
                    if (
                        t.drop_penalty == "two_to_all"
                        or t.drop_penalty == "lowest_only"
                        and p in lowest
                    ):
                        pay(d, p, 2)
                    elif t.drop_penalty == "per_player_to_lowest" and p in lowest:
                        pay(d, p, t.players)
                    elif t.drop_penalty == "two_to_each_le" and left[p] <= left[d]:
                        pay(d, p, 2)
                lowest_collect()
                winner = lowest[0] if len(lowest) == 1 else -1
        return reason, winner, chips

    def calls(self, discarder: int) -> int:
        """Call Rummy after ``discarder``'s discard (module docstring); returns the caller
        who went out by his discard, or -1."""
        players = self.t.players
        while True:
            card = self.discard[-1]
            caller = discarder
            for _ in range(1, players):  # greedy calls whatever it may, random on a coin
                caller = self.step(caller)
                m = self.first_joker_fit(caller) if card == JOKER else self.first_fit(card, caller)
                if m >= 0 and (self.bots[caller] != "random" or self.coin()):
                    break
            else:
                return -1
            self.discard.pop()
            self.log(E_CALL, caller, card, discarder)
            if card == JOKER:
                self.lay_off_joker(caller, m)
            else:
                self.lay_off(caller, m, card)
            self.played[caller] = True
            self.come_round = -1
            if self.bots[caller] == "random":
                self.owed = 0
                out = self.random_discard(caller, [])
            else:
                out = self.greedy_discard(caller, [], -1)
            self.take(caller, out)
            self.discard.append(out)
            self.log(E_DISCARD, caller, out)
            if not self.hands[caller]:
                return caller
            discarder = caller

    # ---- Phỏm (RULES.md §3.13, §2K; docs/variants.md "Phỏm")
    def taken_held(self, seat: int, hand: Counter | None = None) -> list[int]:
        """The cards ``seat`` took from the discard pile this hand still in ``hand`` (his)."""
        hand = self.hands[seat] if hand is None else hand
        return sorted(k for k in self.picked[seat] if hand[k] > 0)

    def best_apart(self, hand: Counter, apart: list[int]) -> tuple[int, tuple[arr.Meld, ...]]:
        """The best arrangement of ``hand`` that melds each card of ``apart`` in a meld of
        its own (none: (0, ()))."""
        return arr.best_arrangement(
            sorted(hand.elements()), self.t.meld_rules, self.t.values, apart=apart
        )

    def apart_deadwood(self, seat: int, hand: Counter) -> int | None:
        """The deadwood of ``hand`` (``seat``'s, or his less a card) with his taken cards in
        it kept apart; None when no arrangement keeps them apart."""
        apart = self.taken_held(seat, hand)
        value, melds = self.best_apart(hand, apart)
        if apart and not melds:
            return None
        return sum(self.t.values[k] * n for k, n in hand.items()) - value

    def without(self, seat: int, kind: int) -> Counter:
        rest = Counter(self.hands[seat])
        rest[kind] -= 1
        return +rest

    def may_take_top(self, seat: int, top: int) -> bool:
        """The take (§3.13): the hand with ``top`` admits an arrangement in which every
        taken card held and ``top`` sit each in a meld of its own."""
        hand = Counter(self.hands[seat])
        hand[top] += 1
        _, melds = self.best_apart(hand, [*self.taken_held(seat), top])
        return bool(melds)

    def u_card(self, seat: int) -> int | None:
        """How ``seat`` goes Ù now: -1 without a discard (his whole hand melds, taken cards
        apart), else the lowest-valued card (ties: the higher kind) not taken whose
        discard leaves a hand that melds so; None: no Ù."""
        if self.apart_deadwood(seat, self.hands[seat]) == 0:
            return -1
        taken = self.taken_held(seat)
        outs = [
            k
            for k in self.hands[seat]
            if k not in taken and self.apart_deadwood(seat, self.without(seat, k)) == 0
        ]
        if not outs:
            return None
        return max(outs, key=lambda k: (-self.t.values[k], k))

    def phom_discard(self, seat: int) -> int:
        """Greedy's discard (sim/engine/phom_policy.py): of the cards allowed (not taken,
        the rest keeping the taken cards apart), the one leaving the least deadwood; ties:
        the higher value, then the higher kind. Random: a uniform allowed card (kind
        order)."""
        taken = self.taken_held(seat)
        scored = []
        for k in self.hands[seat]:
            if k in taken:
                continue
            dw = self.apart_deadwood(seat, self.without(seat, k))
            if dw is not None:
                scored.append((dw, -self.t.values[k], -k))
        if self.bots[seat] == "random":
            allowed = sorted(-key[2] for key in scored)
            return allowed[self.bots_rng.below(len(allowed))]
        return -min(scored)[2]

    def phom_layoffs(self, seat: int, keep: int) -> None:
        """Greedy's lay-offs in its fourth turn (``phom_layoff_others``, §2K.43): each card
        but ``keep``, from the lowest kind up, on the first meld another player showed
        that takes it; passes again until one lays nothing off. Random tosses a coin for
        each such card (laid off on a 1)."""
        if not self.t.layoff_others:
            return
        changed = True
        while changed:
            changed = False
            for k in sorted(k for k in self.hands[seat] if k != keep):
                for m, meld in enumerate(self.melds):
                    if meld.owner != seat and fits(self.t, meld, k):
                        if self.bots[seat] == "random" and not self.coin():
                            break
                        self.take(seat, k)
                        self.lay_off(seat, m, k)
                        changed = True
                        break

    def play_phom(self) -> tuple[int, int, list[Event]]:
        """Phỏm's hand (module docstring): four turns each unless someone goes Ù."""
        t = self.t
        seat = self.step(self.dealer)
        while True:
            if self.turns > 0:  # the first player's opening turn has no draw
                top = self.discard[-1]
                # greedy always takes when it may, random on a coin
                if self.may_take_top(seat, top) and (self.bots[seat] != "random" or self.coin()):
                    self.discard.pop()
                    self.give(seat, top)
                    self.picked[seat].add(top)
                    self.log(E_DRAW_DISCARD, seat, top)
                else:
                    self.draw_stock(seat, 0)
            u = self.u_card(seat)
            if u is not None:  # Ù: the melds go down, then the discard (if any)
                rest = self.hands[seat] if u < 0 else self.without(seat, u)
                _, melds = self.best_apart(rest, self.taken_held(seat, rest))
                for meld in melds:
                    self.lay_down(seat, meld, [])
                self.discarded = u >= 0
                if u >= 0:
                    self.take(seat, u)
                    self.discard.append(u)
                    self.log(E_DISCARD, seat, u)
                self.turns += 1
                return self.end(WENT_U, seat)
            card = self.phom_discard(seat)
            if self.turns >= 3 * t.players:  # his fourth turn: show, lay off, discard
                rest = self.without(seat, card)
                _, melds = self.best_apart(rest, self.taken_held(seat, rest))
                for meld in melds:
                    self.lay_down(seat, meld, [])
                self.phom_layoffs(seat, card)
            self.take(seat, card)
            self.discard.append(card)
            self.log(E_DISCARD, seat, card)
            self.turns += 1
            if self.turns >= 4 * t.players:
                return self.end(SHOWDOWN, -1)
            seat = self.step(seat)

    def previous(self, seat: int) -> int:
        """The seat before ``seat`` in the direction of play (whose discards he takes)."""
        return (seat - self.t.direction) % self.t.players

    def settle_phom(self, reason: int, winner: int) -> tuple[int, int, list[int]]:
        """Phỏm's chips (sim/engine/phom_chips.py, RULES.md §3.13, §2K.44-45): (end reason,
        winner, chips)."""
        t = self.t
        chips = [0] * t.players

        def pay(payer: int, payee: int, n: int) -> None:
            chips[payer] -= n
            chips[payee] += n

        if reason == WENT_U:
            each = 6 if self.discarded else 12
            if t.three_taken and len(self.picked[winner]) >= 3:
                pay(self.previous(winner), winner, each * (t.players - 1))
            else:
                for p in range(t.players):
                    if p != winner:
                        pay(p, winner, each)
        else:  # showdown: móm last, then the garbage count, then the turn order
            left = self.left()
            order = [self.step(self.dealer)]
            while len(order) < t.players:
                order.append(self.step(order[-1]))
            ranking = sorted(
                range(t.players), key=lambda p: (not self.melded[p], left[p], order.index(p))
            )
            winner = ranking[0]
            for place, p in enumerate(ranking[1:], start=1):
                pay(p, winner, place if self.melded[p] else 4)
        if t.taken_penalty:
            for p in range(t.players):
                if self.picked[p]:
                    pay(self.previous(p), p, len(self.picked[p]))
        return reason, winner, chips

    # ---- Conquian (RULES.md §3.21; docs/variants.md "Conquian", docs/bots.md "Conquian")
    def play_conquian(self) -> tuple[int, int, list[Event]]:
        """Conquian's hand (module docstring): turns until a player has 11 cards melded
        (``went_out``) or a card is turned down with the stock empty (a drawn hand,
        ``exhausted``)."""
        seat = self.step(self.dealer)
        while self.turns < self.t.turn_cap:
            outcome = self.conquian_turn(seat)
            if outcome == "drawn":
                return self.end(EXHAUSTED, -1)
            self.turns += 1
            if outcome == "out":
                return self.end(WENT_OUT, seat)
            seat = self.step(seat)
        return self.end(STALLED, -1)

    def conquian_turn(self, seat: int) -> str:
        """``seat``'s turn: the card on offer forced, used or turned down; then (with none
        on offer, or after turning it down) the stock's top card turned up and used or
        passed. Returns "on", "out" (his 11th card melded) or "drawn" (the stock empty when
        a card must be turned up)."""
        card = self.offer
        if card >= 0:
            self.offer = -1
            other = self.step(seat)
            forced = self.fits_own(seat, card) and self.forces(other)  # open point 5: first
            if forced:
                self.log(E_FORCE, other, card, seat)
            use = self.best_use(seat, card)
            if use is not None and (forced or self.uses(seat)):
                return self.use(seat, card, use, offered=True)
            self.log(E_REJECT, seat, card)  # face down, out of play
        if not self.stock:
            return "drawn"
        card = self.pop_stock()
        self.log(E_EXPOSE, seat, card)
        use = self.best_use(seat, card)
        if use is not None and self.uses(seat):
            return self.use(seat, card, use, offered=False)
        self.offer = card  # passed face up onto the discard pile: on offer to the next
        self.log(E_PASS, seat, card)
        return "on"

    def fits_own(self, seat: int, kind: int) -> bool:
        """Could ``kind`` be laid off on one of ``seat``'s melds (RULES.md §1.6)?"""
        return any(m.owner == seat and fits(self.t, m, kind) for m in self.melds)

    def coin(self) -> bool:
        """The random bot's fair coin (its stream)."""
        return self.bots_rng.below(2) == 1

    def forces(self, forcer: int) -> bool:
        """Does ``forcer`` force the other player to use the card on offer, which fits one
        of that player's melds? careful always, greedy never, random on a coin."""
        bot = self.bots[forcer]
        return self.coin() if bot == "random" else bot == "careful"

    def uses(self, seat: int) -> bool:
        """Does ``seat`` use the exposed card, which has a use? greedy and careful always,
        random on a coin."""
        return self.coin() if self.bots[seat] == "random" else True

    def keeping(
        self, seat: int, card: int, touched: list[int], limit: int
    ) -> tuple[int, tuple[arr.Meld, ...]]:
        """The best arrangement (brute force, every card worth 1, so the most cards
        melded) of ``seat``'s hand, the cards of his table melds ``touched`` and ``card``
        that melds all of those melds' cards and ``card``, in at most ``limit`` melds:
        (cards melded, melds in decision order); (0, ()) when none does."""
        kept = [k for m in touched for k in self.melds[m].naturals()] + [card]
        pool = sorted(self.cards_of(seat) + kept)
        return arr.best_arrangement(pool, self.t.meld_rules, self.t.values, limit, keep=kept)

    def best_use(self, seat: int, card: int) -> tuple[list[int], tuple[arr.Meld, ...]] | None:
        """The use of ``card`` that melds the most cards: (the table indices of the melds
        of his it takes up, its melds), None when the card melds nowhere. ``rearrange =
        own``: all his melds, his hand and the card formed again into at most one meld
        more than he has. ``none``: one new meld holding the card, or one of his melds, in
        table order, with the card and hand cards formed again as one meld (a lay-off):
        the one adding the most cards to the table, the new meld first."""
        own = [m for m, meld in enumerate(self.melds) if meld.owner == seat]
        if self.t.rearrange_own:
            count, melds = self.keeping(seat, card, own, len(own) + 1)
            return (own, melds) if count else None
        count, melds = self.keeping(seat, card, [], 1)
        best, gain = (count, [], melds), count
        for m in own:
            count, melds = self.keeping(seat, card, [m], 1)
            if count and count - self.melds[m].length > gain:
                best, gain = (count, [m], melds), count - self.melds[m].length
        return (best[1], best[2]) if best[0] else None

    def free_meld(self, m: int) -> None:
        """Table meld ``m`` leaves the table: the last meld takes its place."""
        last = self.melds.pop()
        if m < len(self.melds):
            self.melds[m] = last

    def use(
        self, seat: int, card: int, use: tuple[list[int], tuple[arr.Meld, ...]], offered: bool
    ) -> str:
        """``seat`` uses ``card`` (``best_use``'s): the melds it takes up that the use
        leaves as they were stay; the others go back to his hand (``E_REFORM``, freed from
        the last), and the use's other melds go down in its order; then he discards,
        unless his hand is empty: "out" (11 melded) or "on"."""
        touched, melds = use
        self.log(E_USE, seat, card, 1 if offered else 0)
        stays: list[int] = []  # the use's melds that are a touched meld as it was
        reformed = []
        for m in touched:
            cards = tuple(sorted(self.melds[m].naturals()))
            same = [i for i, meld in enumerate(melds) if i not in stays and meld.naturals == cards]
            if same:
                stays.append(same[0])
            else:
                reformed.append(m)
        if reformed:
            back = sorted(k for m in reformed for k in self.melds[m].naturals())
            self.log(E_REFORM, seat, len(reformed), 0, back)
            for m in sorted(reformed, reverse=True):
                self.free_meld(m)
            for k in back:
                self.give(seat, k)
        self.give(seat, card)
        for i, meld in enumerate(melds):
            if i not in stays:
                self.lay_down(seat, meld, [])
        if not self.hands[seat]:
            return "out"
        kind = self.conquian_discard(seat)
        self.take(seat, kind)
        self.offer = kind
        self.log(E_DISCARD, seat, kind)
        return "on"

    def ties(self, hand: list[int], kind: int) -> int:
        """How many cards of ``hand`` could meld with ``kind``: the others of its rank, and
        those of its suit one or two run positions away."""
        layout = self.t.meld_rules.layout
        return sum(
            1
            for k in hand
            if k != kind
            and (
                rank_of(k) == rank_of(kind)
                or (
                    suit_of(k) == suit_of(kind)
                    and run_distance(layout, rank_of(k), rank_of(kind)) <= 2
                )
            )
        )

    def conquian_discard(self, seat: int) -> int:
        """The discard after a use (docs/bots.md): random a uniform card of the hand (kind
        order); greedy the card with the fewest ties (``ties``, and 2 more when it fits one
        of his melds; ties: the higher kind); careful the same among the cards that fit
        none of the other player's melds, when there are any."""
        hand = sorted(self.hands[seat])
        bot = self.bots[seat]
        if bot == "random":
            return hand[self.bots_rng.below(len(hand))]
        among = hand
        if bot == "careful":
            among = [k for k in hand if not self.fits_own(self.step(seat), k)] or hand
        return min(among, key=lambda k: (self.ties(hand, k) + 2 * self.fits_own(seat, k), -k))

    def left(self) -> list[int]:
        """The value of each seat's cards."""
        return [sum(self.t.values[k] * n for k, n in h.items()) for h in self.hands]

    def block_winner(self) -> int:
        """The seat with the lowest total alone, or -1 when it is shared."""
        left = self.left()
        lowest = [p for p, v in enumerate(left) if v == min(left)]
        return lowest[0] if len(lowest) == 1 else -1

    def block_scores(self) -> list[int]:
        """A block's scores (module docstring)."""
        t = self.t
        left = self.left()
        low = min(left)
        lowest = [p for p, v in enumerate(left) if v == low]
        if t.scoring == "penalty":
            return [0 if v == low else -v for v in left]
        if t.stock_exhaustion == "block_totals":
            pot = sum(v for v in left if v != low)
        else:
            pot = sum(v - low for v in left)
        return [pot // len(lowest) if v == low else 0 for v in left]

    def score(self, reason: int, winner: int) -> list[int]:
        """Each seat's score of the hand (sim/engine/scoring.py): ``pip_to_winner`` and
        ``per_card`` (whose values ``card_values`` writes) give the winner the value of
        every card left in the other hands, ``penalty`` takes from each other player the
        value of his own; going rummy doubles the winner's score. No winner, no score (a
        block scores every hand: ``block_scores``)."""
        t = self.t
        if reason == BLOCK:
            return self.block_scores()
        scores = [0] * t.players
        if winner < 0:
            return scores
        if t.scoring == "continental":  # zero-sum (§3.11)
            pay = self.continental_pay(winner)
            return [pay * (t.players - 1) if p == winner else -pay for p in range(t.players)]
        left = self.left()
        if t.scoring == "own_melds_from_each":  # §3.12: the discard does not count
            scores[winner] = sum(self.t.values[k] for k in self.laid) * (t.players - 1)
        elif t.scoring == "unmelded_to_winner":  # §3.7: each other hand at its least deadwood
            scores[winner] = sum(
                self.deadwood(self.hands[p]) for p in range(t.players) if p != winner
            )
        elif t.scoring == "penalty":
            for p in range(t.players):
                if p != winner:
                    scores[p] = -left[p]
        else:
            scores[winner] = sum(left)
        if reason == WENT_RUMMY:
            if t.going_rummy_bonus is None:
                scores = [2 * s for s in scores]
            else:
                scores[winner] += t.going_rummy_bonus
        return scores


class PartnershipHand:
    """4-player gin (RULES.md §3.19; docs/variants.md): seats 0 and 2 against 1 and 3, each
    hand two 2-player gin hands, one at each table with its own pack. Partners switch
    opponents every hand: tables 0-1 and 2-3 on a game's even hands (``hand_index``), 0-3
    and 2-1 on its odd ones. A table's deal is ``2 * deal + table``; its dealer is the
    game's dealer if he sits there, else his partner. Its events are a 2-player hand's
    (``Hand``), its seats turned into the game's, after ``E_TABLE`` (seat = its team A
    seat, a = the table, b = its team B seat). The team score: what each team's winners
    scored, summed; when both teams scored, the larger records the difference (equal:
    nothing); a void table adds nothing; both partners carry it (``E_TEAMS``: seat -1, a =
    team A's, b = team B's). The hand's end reason and winner, which RULES.md leaves to
    the engine: the winner of the table that scored the most (the first table on a tie)
    when a team scored, and that table's reason; else no winner, with the reason of the
    table that scored the most, or the first table's when neither scored."""

    def __init__(self, table: Table, seed: int, deal: int, dealer: int, shard: int = 0,
                 bots: tuple[str, ...] = (), hand_index: int = 0):  # fmt: skip
        self.t = dataclasses.replace(table, players=2, partnership=False)
        self.seed, self.deal, self.dealer, self.shard = seed, deal, dealer, shard
        self.bots = tuple(bots) or ("greedy",) * 4
        self.hand_index = hand_index
        self.scores = [0] * 4
        self.side = [0] * 4

    def play(self) -> tuple[int, int, list[Event]]:
        events: list[Event] = []
        points = [0, 0]
        best = (-1, -1, VOID)  # (points, seat, reason) of the table that scored the most
        first_reason = VOID
        for table in range(2):
            a = 2 * table
            b = 1 + 2 * table if self.hand_index % 2 == 0 else 3 - 2 * table
            seats = (a, b)
            events.append((E_TABLE, a, table, b, ()))
            dealer = 0 if self.dealer in (a, (a + 2) % 4) else 1
            hand = Hand(self.t, self.seed, 2 * self.deal + table, dealer, self.shard,
                        bots=(self.bots[a], self.bots[b]))  # fmt: skip
            reason, winner, log = hand.play()
            events += [(e, seats[s] if s in (0, 1) else s, x, y, c) for e, s, x, y, c in log]
            self.side[a], self.side[b] = hand.side
            if table == 0:
                first_reason = reason
            if winner >= 0:
                seat = seats[winner]
                points[seat % 2] += hand.scores[winner]
                if hand.scores[winner] > best[0]:
                    best = (hand.scores[winner], seat, reason)
        pa, pb = points
        if pa > 0 and pb > 0:
            pa, pb = max(pa - pb, 0), max(pb - pa, 0)
        self.scores = [pa, pb, pa, pb]
        events.append((E_TEAMS, -1, pa, pb, ()))
        if pa > 0 or pb > 0:
            return best[2], best[1], events
        return (best[2] if best[1] >= 0 else first_reason), -1, events


def copy_meld(m: TableMeld) -> TableMeld:
    """A copy of table meld ``m`` to lay cards off on in a search."""
    return TableMeld(
        m.kind,
        m.owner,
        rank=m.rank,
        counts=list(m.counts),
        jokers=m.jokers,
        lo=m.lo,
        slots=list(m.slots),
        suit=m.suit,
        declared=set(m.declared),
        slid=set(m.slid),
    )


@functools.lru_cache(maxsize=1 << 12)
def memo_arrangement(
    rules: arr.Rules, values: tuple[int, ...], cards: tuple[int, ...]
) -> tuple[int, tuple[arr.Meld, ...]]:
    """(melded value, melds in decision order) of the declared best arrangement of
    ``cards`` (distinct natural cards: one pack, no jokers), as ``arr.best_arrangement``
    states it, by its own definition read as a recursion: the lowest undecided card goes
    into one of the melds through it among the undecided cards, in the order they are
    tried, or is left in hand, tried last; the first choice whose best continuation melds
    the most value wins (its sequence is then the smallest). Memoized on the undecided
    cards."""
    through: dict[int, list[tuple[int, int, arr.Meld]]] = {}
    for meld in arr.all_melds(list(cards), rules):
        mask = sum(1 << k for k in meld.naturals)
        value = sum(values[k] for k in meld.naturals)
        through.setdefault(min(meld.naturals), []).append((mask, value, meld))
    for melds in through.values():
        melds.sort(key=lambda x: arr.tried(x[2].key))
    memo: dict[int, tuple[int, tuple[arr.Meld, ...]]] = {}

    def best(rest: int) -> tuple[int, tuple[arr.Meld, ...]]:
        if rest == 0:
            return 0, ()
        found = memo.get(rest)
        if found is not None:
            return found
        low = rest & -rest
        c = low.bit_length() - 1
        choice = None
        for mask, value, meld in through.get(c, []):
            if mask & rest == mask:
                after, melds = best(rest & ~mask)
                if choice is None or value + after > choice[0]:
                    choice = (value + after, (meld, *melds))
        after, melds = best(rest & ~low)
        if choice is None or after > choice[0]:
            choice = (after, melds)
        memo[rest] = choice
        return choice

    return best(sum(1 << k for k in cards))


@functools.lru_cache(maxsize=1 << 16)
def knock_arrangement(table: Table, cards: tuple[int, ...]) -> tuple[int, Counter, tuple]:
    """(deadwood, melded cards, melds in decision order) of the brute-force best
    arrangement of ``cards`` (``tests.oracles.arrangement``, its declared tie-break)."""
    value, melds = arr.best_arrangement(list(cards), table.meld_rules, table.values, 0)
    melded = Counter(k for m in melds for k in m.naturals)
    return sum(table.values[k] for k in cards) - value, melded, melds


def play_hand(
    rules: Rules, players: int, seed: int, deal: int, dealer: int, shard: int = 0
) -> tuple[int, int, list[Event]]:
    """Play deal ``deal`` of ``(seed, shard)`` with ``dealer`` dealing: (end reason, winner,
    event log)."""
    return Hand(Table.of(rules, players), seed, deal, dealer, shard).play()


def event_text(event: Event) -> str:
    """One event as a line of text (for a failure message)."""
    etype, seat, a, b, cards = event
    name = EVENT_NAMES.get(etype, str(etype))
    text = f"{name:<12} seat={seat:>2} a={a:>3} b={b:>3}"
    if cards:
        text += " " + cards_text(cards)
    return text
