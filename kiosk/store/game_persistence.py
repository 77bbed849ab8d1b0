"""A game's persistence as one piece: one method per moment of a game, the order of its end written once.

The session tells the kiosk each moment of its game (``kiosk.games.Moment``); :meth:`GamePersistence.at`
hands it to the method of that moment. Three files keep a game, each worth less than the one before:

1. ``history.jsonl``: one line per finished game (kiosk/store/history.py) — the product's promise;
2. ``current-game.json``: the game being played, saved after every committed action
   (kiosk/store/persistence.py), so a power cut resumes it;
3. the game's record (docs/notation.md, kiosk/store/records.py): ``current-game.record.txt`` while it
   is played, filed under ``records/`` when it ends.

**The end of a game**, in this order and nowhere else (:meth:`GamePersistence.end`):

0. its last action is saved like every other (the save now says the game is over);
1. the history line is appended (or, the history refusing, put in ``pending/``);
2. the record is filed, named by the game's id: filing it again replaces it;
3. the save and the current record are removed.

A crash between any two steps leaves the game in the history exactly once: a save that says the
game is over is finished at the next start (:meth:`GamePersistence.finish_saved`), its line written
unless the history has it already, its record filed again over the same name. When the history
line cannot be written anywhere (a full disk), nothing that would take the last free space
before it is written: the record is not filed, the files worth less than the line that are not
its only copy (its current record, a save from before its end) are removed to make room for it,
and the game's save, if its end could be saved, is kept (no later game is saved over it). A
finished game that is on disk nowhere is a loss: each one is logged as it happens, and
:meth:`GamePersistence.close` tries once more at exit and returns how many are lost (the kiosk
then exits non-zero).
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path
from typing import Any, Callable, Mapping, Protocol, Sequence

from engine.outcome import Termination

from kiosk import games
from kiosk.core.logs import EVERY_TIME
from kiosk.games import HUMAN, Moment
from kiosk.store.history import GameRecord, History
from kiosk.store.persistence import GameStore, Resumed
from kiosk.store.records import Recording, RecordShelf

log = logging.getLogger(__name__)

#: How the history names the way a game ended (kiosk/store/history.py).
HISTORY_OUTCOME = {Termination.BLOCKED: "blocked", Termination.TURN_LIMIT: "turn_limit"}


class Played(Protocol):
    """What persistence reads of a game's session (kiosk/core/session.py ``GameSession``)."""

    game_name: str
    game: Any  # the engine state, None when no game runs
    game_id: str | None
    started_at: float
    seat_log: list[tuple[int, int, str]]
    noun: str

    @property
    def kinds(self) -> tuple[str, ...]: ...

    @property
    def _duration(self) -> float: ...

    def meta(self) -> dict[str, Any]: ...


class GamePersistence:
    """The state directory's keeping of every game: its save, its history line, its record.

    `saves_ai_games`: also save games with no person at the table (demo games);
    `records_ai_games`: also put them in the history and the records.
    """

    def __init__(
        self,
        state_dir: Path,
        *,
        loaders: Mapping[str, Callable[[dict[str, Any]], Any]],
        resume_within_s: float,
        saves_ai_games: bool = False,
        records_ai_games: bool = False,
    ) -> None:
        self.store = GameStore(state_dir, loaders=loaders, resume_within_s=resume_within_s)
        self.history = History(state_dir)
        if self.history.flush_pending():
            log.error("%d finished game(s) still wait for the history %s", self.history.pending(), self.history.path)
        self.shelf = RecordShelf(state_dir)
        self.saves_ai_games = saves_ai_games
        self.records_ai_games = records_ai_games
        self._recordings: dict[str, Recording] = {}
        #: the id of the finished game the save on disk keeps (its history line is in memory only)
        self._held_game: str | None = None
        self._moments: dict[Moment, Callable[[Played], None]] = {
            Moment.BEGIN: self.begin,
            Moment.STEP: self.step,
            Moment.UNDO: self.undo,
            Moment.SEAT_CHANGE: self.seat_change,
            Moment.END: self.end,
            Moment.ABANDON: self.abandon,
            Moment.RESUME: self.resume,
        }

    def at(self, session: Played, moment: Moment) -> None:
        """The session's hook (``SessionOptions.save``): keep the game at this moment."""
        self._moments[moment](session)

    # ------------------------------------------------------------ the moments
    def begin(self, session: Played) -> None:
        self._record(session, "begin", lambda r: r.begin(session.game.copy(), list(session.kinds)))
        self._save(session)

    def step(self, session: Played) -> None:
        self._record(session, "step", lambda r: r.step(session.game))
        self._save(session)

    def undo(self, session: Played) -> None:
        self._record(session, "undo", lambda r: r.take_back(session.game.copy()))
        self._save(session)

    def seat_change(self, session: Played) -> None:
        self._record(session, "seat change", lambda r: r.seats(session.seat_log))
        self._save(session)

    def resume(self, session: Played) -> None:
        """A saved game continues: its record too (the save on disk is the game's already)."""

        def resume(recording: Recording) -> None:
            recording.resume(session.game.copy(), list(session.kinds))
            recording.seats(session.seat_log)  # a record begun afresh at the resume names them too

        self._record(session, "resume", resume)

    def abandon(self, session: Played) -> None:
        """Left unfinished: the record is dropped, the save archived."""
        self._record(session, "abandon", lambda r: r.end(abandoned=True))
        if self._saves(session):
            self.store.archive("abandoned")

    def end(self, session: Played) -> None:
        """The game is over: saved, then its history line, its record, the clean-up (the module docstring)."""
        game = session.game
        if game is None:
            return
        kinds = list(session.kinds)
        if not self._records(kinds):
            if self._saves(session):
                self.store.discard()
            return
        meta = session.meta()
        meta["duration_s"] = session._duration
        saved = self._save(session, meta)  # 0. the last action, like every other
        record = history_record(session.game_name, game, kinds, meta, ended_at=None)
        if not self._write_history(record, save_holds_it=saved):  # 1.
            return
        self._record(session, "end", lambda r: r.end(game, game_id=session.game_id))  # 2.
        self._clean_up()  # 3.

    # ------------------------------------------------------------ a finished game found at start
    def finish_saved(self, saved: Resumed, kinds: Sequence[str]) -> None:
        """A save of a game that is over (the kiosk stopped during its end): its end, from step 1."""
        game_id = saved.meta.get("game_id")
        if not self._records(kinds):
            self._clean_up()
            return
        if isinstance(game_id, str) and self.history.has(game_id):
            log.info("the finished %s game %s is in the history already", saved.game, game_id[:8])
        else:
            meta = dict(saved.meta)
            meta.setdefault("duration_s", max(0.0, saved.saved_at - saved.started_at))
            record = history_record(saved.game, saved.state, list(kinds), meta, ended_at=saved.saved_at)
            if not self._write_history(record, save_holds_it=True):
                return
            log.info("recorded the finished %s game %s", saved.game, (game_id or "")[:8])
        if _has_notation(saved.game):

            def refile() -> None:
                recorder = self.shelf.resume(saved.state, list(kinds))
                self.shelf.finish(recorder, game_id=game_id if isinstance(game_id, str) else None)

            _guarded(refile, "end")
        self._clean_up()

    # ------------------------------------------------------------ at exit
    def close(self) -> int:
        """At exit: write the finished games still in memory once more; how many are lost (each logged)."""
        if not self.history.unwritten:
            return 0
        self.history.flush_pending()
        held = self._held_game if self.store.held is not None else None
        lost = [r for r in self.history.unwritten if r.game_id is None or r.game_id != held]
        for record in lost:
            log.error(
                "the finished %s game %s is lost: the state directory %s cannot be written",
                record.game,
                record.game_id or "(no id)",
                self.history.state_dir,
                extra=EVERY_TIME,
            )
        if lost:
            log.error(
                "%d finished game(s) are lost: the state directory %s cannot be written (a full disk?)",
                len(lost),
                self.history.state_dir,
                extra=EVERY_TIME,
            )
        return len(lost)

    # ------------------------------------------------------------ the steps
    def _write_history(self, record: GameRecord, *, save_holds_it: bool) -> bool:
        """Step 1 of the end: True when the game's line is on disk (the history or ``pending/``).
        Else the game waits in memory; its save, if `save_holds_it`, is kept for it."""
        if self.history.record(record) or self._room_made_for(record, save_holds_it):
            return True
        if save_holds_it:
            self.store.held = f"the finished game {record.game_id} not yet written to the history"
            self._held_game = record.game_id
            log.error(
                "the finished game %s stays in %s until the history can be written",
                record.game_id,
                self.store.save_path,
                extra=EVERY_TIME,
            )
        else:
            log.error(
                "the finished game %s is in memory only (its end could not be saved either): "
                "it is lost if the kiosk stops before the disk can be written",
                record.game_id,
                extra=EVERY_TIME,
            )
        return False

    def _room_made_for(self, record: GameRecord, save_holds_it: bool) -> bool:
        """A full disk: remove what is worth less than the game's history line and is not its only
        copy (its current record; its save, unless that says the game is over), then try once more."""
        self.shelf.discard_current()
        if not save_holds_it:
            self.store.discard()
        self.history.flush_pending()
        return record not in self.history.unwritten

    def _clean_up(self) -> None:
        """Step 3 of the end: the save and the current record go (a save kept for another game stays)."""
        self.store.discard()
        self.shelf.discard_current()

    def _save(self, session: Played, meta: dict[str, Any] | None = None) -> bool:
        """The game as it stands now, in ``current-game.json``; True when it is durably there."""
        if not self._saves(session) or session.game is None:
            return False
        if self.store.held is not None:
            self.history.flush_pending()
            if not self.history.unwritten:
                self.store.held = None  # the finished game it kept is on disk now (history or pending/)
                self._held_game = None
        return self.store.save(
            session.game_name,
            session.game.to_dict(),
            meta=session.meta() if meta is None else meta,
            started_at=session.started_at,
        )

    def _saves(self, session: Played) -> bool:
        return self.saves_ai_games or HUMAN in session.kinds

    def _records(self, kinds: Sequence[str]) -> bool:
        """The games the history and the records keep: with a person at the table, or all."""
        return self.records_ai_games or HUMAN in kinds

    def _record(self, session: Played, moment: str, keep: Callable[[Recording], object]) -> None:
        """Keep the record of the session's game (with a game, kept, and a notation for it)."""
        if session.game is None or not self._records(session.kinds) or not _has_notation(session.game_name):
            return
        recording = self._recordings.setdefault(session.game_name, Recording(self.shelf))
        _guarded(lambda: keep(recording), moment)


def history_record(
    game_name: str, state: Any, kinds: list[str], meta: Mapping[str, Any], *, ended_at: float | None
) -> GameRecord:
    """The history line of a finished game: its state, who played, and what its save's `meta` says."""
    from kiosk.core.session import seat_changes_of

    kind = games.get(game_name)
    outcome = state.outcome
    return GameRecord.make(
        game=kind.name,
        seats=kinds,
        winners=state.winners,
        turns=state.turns,
        duration_s=meta.get("duration_s", 0.0),
        variant=kind.variant_words(state),
        outcome=HISTORY_OUTCOME.get(outcome.termination, "won") if outcome is not None else "won",
        ended_at=ended_at,
        game_id=meta.get("game_id"),
        seat_changes=seat_changes_of(meta, players=len(kinds)),
        score=kind.score(state),
    )


def _guarded(keep: Callable[[], Any], moment: str) -> None:
    """Keep a game's record: worth less than the game, so a failure is logged and play goes on."""
    try:
        keep()
    except Exception:
        log.exception("keeping the game record failed (%s)", moment)


@functools.cache
def _has_notation(game: str) -> bool:
    """Whether `game` writes records: a game's engine registers its notation (engine.records)."""
    from engine.records import codec_for

    try:
        codec_for(game)
    except ValueError:
        log.info("the %s game has no record notation: its games are not filed as records", game)
        return False
    return True


__all__ = ["GamePersistence", "HISTORY_OUTCOME", "Played", "history_record"]
