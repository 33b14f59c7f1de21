"""The shared part of the replay text: card and meld text, the per-game wording, and the decoder of
the records every game uses (deal, turns, draws, melds and lay-offs, discards, scores, game end).

The decoder keeps just enough state (hands, pile, melds, the table cards credited to each seat) to
show them; it never checks rules and never raises on a malformed trace: a record it cannot decode is
shown raw.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Callable

from rummysim.validate.cards import (
    JOKER,
    RANKS,
    SUIT_GLYPHS,
    SUITS,
    card_glyph,
    card_name,
    run_rank,
)
from rummysim.validate.trace import (
    ADDOPP_LAYOFF,
    CARD,
    DECK,
    DISCARD,
    DRAW_STOCK,
    FLOAT,
    GAME_BONUS,
    GAME_CODE_500,
    GAME_END,
    GAME_START,
    GROUP,
    HAND_END,
    HAND_START,
    JOIN,
    LAYOFF,
    MELD,
    NO_DRAW,
    RUN,
    SCORE,
    SEQUENCE,
    SET,
    TAKE_PILE,
    TEAM_SCORE,
    TURN_START,
    WILD_GROUP,
)

Handler = Callable[[list[int]], None]

PILE_SHOWN = 10  # pile cards shown after each turn (top ones) unless the whole pile is asked for
CREDITING = (MELD, LAYOFF, JOIN)  # groups whose cards are credited to the seat of their CARD records
POSITIONAL = (RUN, SEQUENCE)  # meld kinds whose cards sit at run positions


class CardText:
    """Card and meld text; ``wild`` is the 5000 Rummy wild rank of the current hand (0: none)."""

    def __init__(self, plain: bool) -> None:
        self.base: Callable[[int], str] = card_name if plain else card_glyph
        self.suits = SUITS if plain else SUIT_GLYPHS
        self.joker = "X" if plain else "🃏"
        self.wild = 0

    def is_wild(self, card: int) -> bool:
        return self.wild > 0 and 0 < card < JOKER and (card & 15) == self.wild

    def card(self, card: int) -> str:
        return self.base(card) + ("*" if self.is_wild(card) else "")

    def sort_key(self, card: int) -> tuple[int, int]:
        if card == JOKER:
            return (99, 99)
        if self.is_wild(card):
            return (98, card >> 4)  # wild cards last, like jokers
        return (card >> 4, card & 15)

    def cards(self, cards: list[int], sort: bool = False) -> str:
        seq = sorted(cards, key=self.sort_key) if sort else cards
        return " ".join(self.card(c) for c in seq) if seq else "—"

    def rank(self, r: int) -> str:
        return RANKS[r - 1] if 1 <= r <= 13 else f"?{r}"

    def pos_card(self, suit: int, pos: int) -> str:
        s = self.suits[suit] if 0 <= suit <= 3 else "?"
        return self.rank(run_rank(pos)) + s

    def placed(self, card: int, kind: int, key: int, pos: int) -> str:
        """A card as placed in a meld; jokers and wild cards in a run/sequence show what they
        stand for, jokers in a set its rank."""
        if card == JOKER:
            if kind in POSITIONAL:
                return f"{self.joker}({self.pos_card(key, pos)})"
            return f"{self.joker}({self.rank(key)})"
        txt = self.card(card)
        if kind in POSITIONAL and self.is_wild(card):
            return f"{txt}({self.pos_card(key, pos)})"
        if kind in POSITIONAL and pos == 14 and (card & 15) == 1:
            txt += "(high)"
        return txt

    def meld_label(self, kind: int, key: int, lo: int, hi: int) -> str:
        if kind == SET:
            return f"set of {self.rank(key)}s"
        if kind == GROUP:
            return f"group of {self.rank(key)}s"
        if kind == WILD_GROUP:
            return "wild-card group"
        s = self.suits[key] if 0 <= key <= 3 else "?"
        word = "sequence" if kind == SEQUENCE else "run"
        return f"{word} {s} {self.rank(run_rank(lo))}–{self.rank(run_rank(hi))}"


class GameText(ABC):
    """How one game's records read where the games differ (the defaults are 500 Rum's)."""

    title = ""  # after "Game <index> · "
    shows_target = True
    deals_at_deck = True  # the hands are dealt once the DECK records are complete
    names_ties = False  # GAME_END column 4 is a tie mask
    tie_rule = ""  # the rule that makes a shared highest total a tie, e.g. "R5K-GAME-2"
    scores_table = True  # a seat scores the table cards credited to it (SCORE's table_value)
    addition = "lay off on"

    def wild_rank(self, row: list[int]) -> int:
        """The hand's wild rank from its HAND_START (0: no wild cards)."""
        return 0

    def hand_detail(self, f: CardText, row: list[int]) -> str:
        return f"deal {row[4]}"

    @abstractmethod
    def no_draw(self, mode: int) -> str:
        """The line for a NO_DRAW record with column 2 = ``mode``."""

    @abstractmethod
    def end_reason(self, reason: int, n: int) -> str:
        """Why the hand ended (HAND_END ``reason``, ``n`` players)."""

    def score_line(self, row: list[int]) -> str:
        seat, hs, tot, tv, hv, bonus = row[1:7]
        bon = f"  bonus {bonus:>+5}" if bonus else ""
        return f"    seat {seat}  table {tv:>4}  hand {hv:>4}{bon}  score {hs:>+5}  total {tot:>5}"


class Decoder:
    """The decoding state of one trace; one method per record kind, run over the records.

    ``texts`` maps a GAME_START game code to that game's :class:`GameText` (another code reads
    as 500 Rum).  Each game's records are added by a mixin overriding :meth:`record_handlers`.
    ``full_pile`` shows the whole discard pile after each turn instead of its top
    :data:`PILE_SHOWN` cards.
    """

    def __init__(self, rows: list[list[int]], plain: bool, texts: dict[int, GameText],
                 full_pile: bool = False) -> None:
        self.rows = rows
        self.pile_shown = None if full_pile else PILE_SHOWN
        self.f = CardText(plain)
        self.texts = texts
        self.text = texts[GAME_CODE_500]
        self.out: list[str] = []
        self.i = 0  # index of the record being decoded
        self.n = 0
        self.partnership = 0  # GAME_START column 6: 0 none, else seats s and s+2 are a team
        self.dealer = 0
        self.deal = 0
        self.pack: list[int] = []
        self.pack_size = 0
        self.hands: list[list[int]] = []
        self.pile: list[int] = []
        self.credited: list[list[int]] = []  # per seat, the table cards credited this hand
        self.melds: dict[int, dict] = {}
        self.group: dict | None = None  # the MELD/LAYOFF/JOIN whose CARD records are being read
        self.call_turn = False
        self.oot_seat = -1
        self.totals_line: list[str] = []
        self.hand_reset()
        self.handlers = self.record_handlers()

    def record_handlers(self) -> dict[int, Handler]:
        return {
            GAME_START: self.game_start, HAND_START: self.hand_start, DECK: self.deck,
            TURN_START: self.turn_start, DRAW_STOCK: self.draw_stock, TAKE_PILE: self.take_pile,
            NO_DRAW: self.no_draw, MELD: self.meld, LAYOFF: self.layoff, CARD: self.card,
            DISCARD: self.discard, FLOAT: self.float_, HAND_END: self.hand_end,
            SCORE: self.score, TEAM_SCORE: self.team_score, GAME_BONUS: self.game_bonus,
            GAME_END: self.game_end,
        }

    def w(self, line: str) -> None:
        self.out.append(line)

    def run(self) -> str:
        for i, row in enumerate(self.rows):
            self.i = i
            kind = row[0]
            try:
                g = self.group
                if kind != CARD and g is not None and len(g["cards"]) >= g["n"]:
                    self.flush_group()
                if kind not in (MELD, CARD):
                    self.oot_seat = -1
                handler = self.handlers.get(kind)
                if handler is None:
                    self.w(f"  ?? record {i}: {row}")
                else:
                    handler(row)
            except Exception as exc:  # never raise on a bad trace
                self.w(f"  ?? record {i}: {row} ({exc.__class__.__name__})")
        try:
            if self.group is not None:
                self.flush_group()
        except Exception as exc:
            self.w(f"  ?? unfinished meld group ({exc.__class__.__name__})")
        return "\n".join(self.out) + "\n"

    # ---- helpers ----
    def take_from_hand(self, seat: int, c: int) -> None:
        if 0 <= seat < len(self.hands) and c in self.hands[seat]:
            self.hands[seat].remove(c)

    def add_to_hand(self, seat: int, cards: list[int]) -> None:
        if 0 <= seat < len(self.hands):
            self.hands[seat].extend(cards)

    def show_pile(self) -> None:
        shown = self.pile if self.pile_shown is None else self.pile[-self.pile_shown:]
        more = f"({len(self.pile) - len(shown)} more) … " if len(self.pile) > len(shown) else ""
        self.w(f"    pile    {more}{self.f.cards(shown)}")

    def credit(self, seat: int, c: int) -> None:
        if 0 <= seat < len(self.credited):
            self.credited[seat].append(c)

    def uncredit(self, c: int) -> None:
        """A table card leaves the seat it was credited to (a 5000 Rummy trade)."""
        for cards in self.credited:
            if c in cards:
                cards.remove(c)
                return

    def next_row(self, wanted: Callable[[int], bool]) -> list[int] | None:
        """The first record after the current one whose kind is ``wanted``."""
        for j in range(self.i + 1, len(self.rows)):
            if wanted(self.rows[j][0]):
                return self.rows[j]
        return None

    def describe(self, mid: int) -> str:
        """``seat 1's group of 4s`` for meld ``mid``."""
        m = self.melds.get(mid)
        if m is None:
            return "?"
        return f"seat {m['owner']}'s " + self.f.meld_label(m["kind"], m["key"], m["lo"], m["hi"])

    # ---- game and hand start, dealing ----
    def game_start(self, row: list[int]) -> None:
        self.n = max(0, min(row[1], 8))
        self.dealer = row[2]
        self.partnership = row[6]
        self.text = self.texts.get(row[5], self.texts[GAME_CODE_500])
        target = f" · target {row[4]}" if self.text.shows_target and row[4] else ""
        teams = f" · teams {self.team_name(0)} v {self.team_name(1)}" if self.partnership else ""
        self.w(f"Game {row[3]} · {self.text.title}{row[1]} players · first dealer seat {row[2]}"
               f"{target}{teams}")

    @staticmethod
    def team_name(team: int) -> str:
        """``team 0 (seats 0+2)``: partners sit opposite, the team of seat s is s mod 2."""
        return f"team {team} (seats {team}+{team + 2})"

    def hand_start(self, row: list[int]) -> None:
        self.dealer, self.pack_size, self.deal = row[2], row[3], row[4]
        self.pack = []
        self.melds = {}
        self.credited = [[] for _ in range(self.n)]
        self.hand_reset()
        self.w("")
        self.f.wild = self.text.wild_rank(row)
        self.w(f"━━ Hand {row[1] + 1} · dealer seat {self.dealer} · pack {self.pack_size} · "
               f"{self.text.hand_detail(self.f, row)} · seat {row[5]} plays first ━━")

    def hand_reset(self) -> None:
        """What a game's mixin clears at each HAND_START."""

    def deck(self, row: list[int]) -> None:
        off = row[1]
        for j, c in enumerate(row[2:8]):
            p = off + j
            if c >= 0 and 0 <= p < min(self.pack_size, 256):
                if p >= len(self.pack):
                    self.pack.extend([-1] * (p + 1 - len(self.pack)))
                self.pack[p] = c
        complete = len([c for c in self.pack if c >= 0]) == self.pack_size
        if complete and self.pack_size and self.n and self.text.deals_at_deck:
            self.deck_complete()

    def deck_complete(self) -> None:
        """The whole pack is listed: deal (in games that deal at the DECK records)."""

    def deal_upcard(self, pos: int) -> None:
        up = self.pack[pos] if pos < len(self.pack) else -1
        self.pile = [up] if up >= 0 else []
        self.w(f"  upcard {self.f.card(up) if up >= 0 else '?'} · stock "
               f"{max(0, len(self.pack) - pos - 1)}")

    # ---- turns and draws ----
    def turn_start(self, row: list[int]) -> None:
        self.call_turn = row[5] == 1
        what = f"seat {row[1]} calls Rummy!" if self.call_turn else f"seat {row[1]}"
        self.w(f"  Turn {row[2]} · {what} · stock {row[3]} · pile {row[4]}")

    def draw_stock(self, row: list[int]) -> None:
        self.w(f"    draw    {self.f.card(row[2])} from the stock")
        self.add_to_hand(row[1], [row[2]])

    def take_pile(self, row: list[int]) -> None:
        f, pile = self.f, self.pile
        k = row[2]
        taken = pile[k:] if 0 <= k <= len(pile) else []
        top = k == len(pile) - 1
        what = "the top card" if top else f"from pile[{k}] ({f.card(row[4])})"
        if self.call_turn:
            if top:
                what = f"the top card ({f.card(row[4])})"
            self.w(f"    seat {row[1]} calls Rummy! takes {what}, {row[3]} card(s): "
                   f"{f.cards(taken)}")
        else:
            self.w(f"    take    {what}, {row[3]} card(s): {f.cards(taken)}")
        if 0 <= k <= len(pile):
            del pile[k:]
        self.add_to_hand(row[1], taken)

    def no_draw(self, row: list[int]) -> None:
        self.w(self.text.no_draw(row[2]))

    # ---- plays ----
    def meld(self, row: list[int]) -> None:
        seat, mid, mk, key, lo, nc = row[1:7]
        hi = lo + nc - 1 if mk in POSITIONAL else 0
        self.melds[mid] = {"kind": mk, "key": key, "lo": lo, "hi": hi, "count": nc,
                           "owner": seat}
        self.group = {"type": MELD, "meld_id": mid, "kind": mk, "key": key, "n": nc,
                      "cards": [], "seat": seat, "oot": self.oot_seat == seat}

    def layoff(self, row: list[int]) -> None:
        """LAYOFF (500 lay-off, 5000 addition) or ADDOPP_LAYOFF."""
        seat, mid, nc = row[1:4]
        m = self.melds.get(mid, {"kind": 0, "key": 0, "lo": 0, "hi": 0, "count": 0,
                                 "owner": -1})
        m["count"] += nc
        self.group = {"type": row[0], "meld_id": mid, "kind": m["kind"], "key": m["key"],
                      "n": nc, "cards": [], "seat": seat}

    def card(self, row: list[int]) -> None:
        seat, mid, c, pos = row[1:5]
        g = self.group
        if g is None:
            self.w(f"    (stray CARD {self.f.card(c)} for meld #{mid})")
            return
        g["cards"].append((c, pos))
        if g["type"] in CREDITING:
            self.credit(seat, c)
        self.take_from_hand(seat, c)
        if len(g["cards"]) >= g["n"]:
            self.flush_group()

    def discard(self, row: list[int]) -> None:
        seat, c = row[1], row[2]
        self.w(f"    discard {self.f.card(c)}")
        self.take_from_hand(seat, c)
        self.pile.append(c)
        self.show_pile()

    def float_(self, row: list[int]) -> None:
        self.w(f"    seat {row[1]} floats (0 cards, the hand goes on)")

    # ---- a finished MELD / LAYOFF / JOIN group ----
    def flush_group(self) -> None:
        g = self.group
        if g is None:
            return
        self.group = None
        joined = f"#{g['meld_id']} ({self.describe(g['meld_id'])})"  # before the gap cards
        self.extend_range(g)
        f = self.f
        cards_txt = " ".join(
            f.placed(c, g["kind"], g["key"], p) for c, p in sorted(g["cards"], key=lambda x: x[1])
        )
        self.write_group(g, joined, cards_txt)

    def extend_range(self, g: dict) -> None:
        """A run's / sequence's range grows to the positions of the cards put on it."""
        m = self.melds.get(g["meld_id"])
        ps = [p for _, p in g["cards"]]
        if m is None or m["kind"] not in POSITIONAL or not ps:
            return
        if (m["kind"] == RUN and g["type"] not in (MELD, JOIN) and min(ps) > m["hi"] + 1
                and max(ps) < m["lo"] + 13):
            m["lo"] += 13  # V500-CORNER: a lay-off below position 1, written re-based
            m["hi"] += 13
        m["lo"] = min([m["lo"]] + ps)
        m["hi"] = max([m["hi"]] + ps)

    def write_group(self, g: dict, joined: str, cards_txt: str) -> None:
        """A finished MELD or LAYOFF group; ``joined`` describes the meld before it."""
        if g["type"] == MELD:
            self.write_meld(g, cards_txt)
        else:
            self.write_layoff(g, cards_txt)

    def write_meld(self, g: dict, cards_txt: str) -> None:
        m = self.melds.get(g["meld_id"])
        label = self.f.meld_label(m["kind"], m["key"], m["lo"], m["hi"]) if m else "?"
        if g.get("oot"):
            self.w(f"  seat {g['seat']} out of turn: meld #{g['meld_id']} {label}: {cards_txt}")
        else:
            self.w(f"    meld    #{g['meld_id']} {label}: {cards_txt}")

    def write_layoff(self, g: dict, cards_txt: str) -> None:
        mid = g["meld_id"]
        m = self.melds.get(mid)
        what = self.describe(mid) if m else "?"
        now = f", now {m['count']} cards" if m else ""
        if g["type"] == ADDOPP_LAYOFF:
            self.w(f"    seat {g['seat']} lays off on #{mid} ({what}{now}), "
                   f"scoring for no one: {cards_txt}")
        else:
            self.w(f"    {self.text.addition} #{mid} ({what}{now}): {cards_txt}")

    # ---- hand and game end ----
    def hand_end(self, row: list[int]) -> None:
        reason, out_seat, turns = row[1:4]
        why = self.text.end_reason(reason, self.n)
        who = f"seat {out_seat} " if out_seat >= 0 else ""
        self.w(f"  Hand end after {turns} turns: {who}{why}")
        for s, h in enumerate(self.hands):
            if h:
                self.w(f"    seat {s} holds {self.f.cards(h, sort=True)}")
        self.totals_line = []

    def score(self, row: list[int]) -> None:
        self.w(self.text.score_line(row))
        seat = row[1]
        if self.text.scores_table and 0 <= seat < len(self.credited) and self.credited[seat]:
            self.w(f"        credited {self.f.cards(self.credited[seat], sort=True)}")
        self.totals_line.append(f"seat {row[1]} {row[3]}")

    def team_score(self, row: list[int]) -> None:
        team, hs, tot = row[1:4]
        self.w(f"    {self.team_name(team)}  score {hs:>+5}  total {tot:>5}")

    def game_bonus(self, row: list[int]) -> None:
        team, bonus, tot = row[1:4]
        self.w(f"  {self.team_name(team)} has the higher total: game bonus {bonus:+} · total "
               f"{tot}")

    def game_end(self, row: list[int]) -> None:
        winner, n_hands, capped, tied = row[1:5]
        self.w("")
        if capped:
            self.w(f"Game over: hand cap reached after {n_hands} hands, no winner")
        elif self.partnership and winner >= 0:
            self.w(f"Game over after {n_hands} hands: {self.team_name(winner)} wins")
        elif self.partnership and tied > 0:
            self.w(f"Game over after {n_hands} hands: draw, the team totals are equal")
        elif winner >= 0:
            self.w(f"Game over after {n_hands} hands: seat {winner} wins")
        elif self.text.names_ties and tied > 0:
            seats = " and ".join(f"seat {s}" for s in range(31) if tied >> s & 1)
            self.w(f"Game over after {n_hands} hands: tie between {seats} ({self.text.tie_rule})")
        else:
            self.w(f"Game over after {n_hands} hands: no winner (highest total shared)")
        if self.totals_line:
            self.w("  final totals: " + ", ".join(self.totals_line))
