"""The worker that keeps the event loop free: jobs run on its thread and their outcomes
come back on the GUI thread, in order, one per turn; a cancelled job is never delivered;
a failure comes back as the outcome's error. The attack state on a worker answers the
latest choices only, and the faces typed meanwhile are judged in turn."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from tabletop_gui.model import engine_thread
from tabletop_gui.model.attack_controller import AttackController
from tabletop_gui.model.engine_thread import EngineThread
from tabletop_gui.model.jobs import Outcome, Ticket, pause_point, run_job
from tabletop_gui.model.target_scanner import TargetScanner
from tabletop_gui.rules import registry
from tabletop_gui.rules.base import AttackRequest, GivenDice, SeededDice
from tabletop_gui.scenario.battle import battle_of
from tests.core.attack_helpers import coupled
from tests.gui.attack_support import demo, first_pair, moved


class ManualRunner:
    """A runner whose jobs wait until the test runs them, in any order (a worker that
    is slow, as seen from the controller and the scanner)."""

    synchronous = False

    def __init__(self) -> None:
        self.jobs: list[tuple[Ticket, Callable[[], Any], Callable[[Outcome[Any]], None]]] = []

    def submit(self, work: Callable[[], Any], done: Callable[[Outcome[Any]], None]) -> Ticket:
        ticket = Ticket()
        self.jobs.append((ticket, work, done))
        return ticket

    def run(self, index: int = 0, finished_anyway: bool = False) -> bool:
        """Run job ``index`` and deliver it, as the worker does: not when cancelled,
        unless ``finished_anyway`` (it was cancelled while it ran: the controller itself must
        see that its answer is too old)."""
        ticket, work, done = self.jobs.pop(index)
        if ticket.cancelled and not finished_anyway:
            return False
        done(run_job(work))
        return True

    def run_all(self) -> None:
        while self.jobs:
            self.run()


def test_outcomes_come_back_on_the_gui_thread_in_order(qtbot) -> None:
    worker = EngineThread()
    ran_on: list[int] = []
    got: list[tuple[int, int]] = []
    for n in range(5):
        worker.submit(lambda n=n: (ran_on.append(threading.get_ident()), n)[1],
                      lambda o: got.append((threading.get_ident(), o.get())))
    assert worker.busy
    qtbot.waitUntil(lambda: len(got) == 5)
    assert [v for _, v in got] == [0, 1, 2, 3, 4]
    assert {t for t, _ in got} == {threading.get_ident()}  # delivered on this thread
    assert threading.get_ident() not in ran_on  # computed on the worker
    qtbot.waitUntil(lambda: not worker.busy)
    worker.close()


def test_a_cancelled_job_is_never_delivered_and_a_failure_comes_back(qtbot) -> None:
    worker = EngineThread()
    gate = threading.Event()
    got: list[object] = []
    worker.submit(gate.wait, lambda o: got.append("first"))
    dropped = worker.submit(lambda: "late", lambda o: got.append(o.get()))
    dropped.cancel()

    def fail() -> None:
        raise ZeroDivisionError("engine bug")

    with qtbot.waitSignal(worker.busy_changed) as idle:
        worker.submit(fail, lambda o: got.append(o.error))
        gate.set()
    assert idle.args == [False]
    assert got[0] == "first" and isinstance(got[1], ZeroDivisionError) and len(got) == 2
    with pytest.raises(ZeroDivisionError):
        Outcome(None, got[1]).get()
    worker.close()


def test_nothing_is_delivered_once_closed(qtbot) -> None:
    worker = EngineThread()
    gate = threading.Event()
    got: list[object] = []
    worker.submit(gate.wait, lambda o: got.append(o))
    worker.close()
    gate.set()
    assert not worker.busy
    worker.submit(lambda: 1, lambda o: got.append(o))  # refused: already closed
    with qtbot.assertNotEmitted(worker.busy_changed, wait=100):
        pass
    assert got == []


def test_a_worker_deleted_without_close_stops_quietly(qtbot, monkeypatch) -> None:
    """A script that exits without closing its window deletes the worker while a job
    runs: the thread finds the object gone when it delivers, and stops without an
    exception (it used to raise "Signal source has been deleted" on its thread)."""
    from shiboken6 import Shiboken

    errors: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: errors.append(args.exc_value))
    worker = EngineThread()
    gate = threading.Event()
    worker.submit(gate.wait, lambda o: None)
    thread = worker._thread
    Shiboken.delete(worker)
    gate.set()
    thread.join(10)
    assert not thread.is_alive()
    assert errors == []


def _job_in_two_steps(record: list[str]) -> tuple[Callable[[], str], threading.Event,
                                                  threading.Event]:
    """A job that records its first step, waits until told to go on (``go``), then
    passes a pause point and records its second step; ``inside``: the first is done."""
    inside, go = threading.Event(), threading.Event()

    def job() -> str:
        record.append("first step")
        inside.set()
        go.wait(30)
        pause_point()
        record.append("second step")
        return "answer"

    return job, inside, go


def test_a_job_waits_at_its_pause_point_until_the_drag_frame_is_done(qtbot,
                                                                     monkeypatch) -> None:
    """A drag step arrives while a job runs: the job waits at its next pause point until
    the event loop rests (the frame has the interpreter lock to itself), then goes on;
    a job submitted meanwhile does not start before either."""
    monkeypatch.setattr(engine_thread, "FRAME_WAIT_S", 60.0)  # only the loop's rest
    worker = EngineThread()
    record: list[str] = []
    got: list[object] = []
    job, inside, go = _job_in_two_steps(record)
    worker.submit(job, lambda o: got.append(o.get()))
    assert inside.wait(30)
    worker.frame_started()  # a drag step: its frame is handled now, on this thread
    worker.submit(lambda: record.append("next job"), lambda o: got.append("next"))
    go.set()
    second = threading.Event()
    worker.submit(second.set, lambda o: None)
    assert not second.wait(0.3)  # the frame is not done: nothing went on meanwhile
    assert record == ["first step"]
    with qtbot.waitSignal(worker.busy_changed, timeout=10000) as idle:
        pass  # the event loop rests: the frame is done
    assert idle.args == [False]
    assert record == ["first step", "second step", "next job"]
    assert got == ["answer", "next"]
    worker.close()


def test_a_job_cancelled_while_it_runs_stops_at_its_pause_point(qtbot) -> None:
    """The scan of a drag step the next step superseded stops at its next pause point
    instead of finishing for nothing; nothing is delivered."""
    worker = EngineThread()
    record: list[str] = []
    got: list[object] = []
    job, inside, go = _job_in_two_steps(record)
    ticket = worker.submit(job, got.append)
    assert inside.wait(30)
    ticket.cancel()
    go.set()
    with qtbot.waitSignal(worker.busy_changed, timeout=10000) as idle:
        pass
    assert idle.args == [False]
    assert record == ["first step"] and got == []
    worker.close()


def test_a_drag_step_on_the_canvas_holds_the_worker_until_the_loop_rests(
        qtbot, make_window, monkeypatch) -> None:
    """The window's view tells its worker of a mouse move with the button held (not of
    one without); the event loop's rest, and the button's release, let it go on."""
    monkeypatch.setattr(engine_thread, "FRAME_WAIT_S", 60.0)  # only the loop's rest
    from PySide6.QtCore import QEvent, QPointF, Qt
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    window = make_window(demo("warcry"))
    worker = window.worker
    vp = window.view.viewport()

    def move(buttons: Qt.MouseButton, kind: QEvent.Type = QEvent.Type.MouseMove,
             button: Qt.MouseButton = Qt.MouseButton.NoButton) -> None:
        p = QPointF(20, 20)
        QApplication.sendEvent(vp, QMouseEvent(kind, p, vp.mapToGlobal(p), button, buttons,
                                               Qt.KeyboardModifier.NoModifier))

    move(Qt.MouseButton.NoButton)
    assert worker._frame_free.is_set()
    move(Qt.MouseButton.LeftButton)
    assert not worker._frame_free.is_set()
    got: list[int] = []
    worker.submit(lambda: 1, lambda o: got.append(o.get()))
    with qtbot.waitSignal(worker.busy_changed, timeout=10000) as idle:
        pass
    assert idle.args == [False] and got == [1]
    assert worker._frame_free.is_set()
    move(Qt.MouseButton.LeftButton)
    assert not worker._frame_free.is_set()
    move(Qt.MouseButton.NoButton, QEvent.Type.MouseButtonRelease, Qt.MouseButton.LeftButton)
    assert worker._frame_free.is_set()


def _attack(runner: ManualRunner) -> tuple[AttackController, TargetScanner, str, str]:
    scenario = demo("warcry")
    a, t = first_pair(scenario)
    st, targets = coupled(scenario, runner=runner)
    st.set_attacker(a)
    runner.run_all()
    return st, targets, a, t


def test_answers_for_an_earlier_choice_are_dropped() -> None:
    runner = ManualRunner()
    st, targets, a, t = _attack(runner)
    other = next(s.target for s in targets.statuses() if s.target != t)
    st.set_target(t)
    assert st.pending and st.current_view.report is None and not st.can_apply
    st.set_target(other)
    # the worker answers the second question, then the first one, whose answer it had
    # nearly finished when it was superseded: that answer is no longer wanted
    assert len(runner.jobs) == 2
    runner.run(1)
    report = st.current_view.report
    assert not st.pending and report is not None and report.target == other
    shown = st.current_view.report
    runner.run(0, finished_anyway=True)
    assert st.choice.target == other and st.current_view.report is shown


def test_faces_typed_while_the_answers_come_are_judged_in_turn() -> None:
    runner = ManualRunner()
    st, targets, a, t = _attack(runner)
    st.set_target(t)
    engine = registry.get("warcry")
    faces = [d.face for d in engine.resolve(battle_of(st.scenario), AttackRequest(a, t),
                                            SeededDice(3)).dice]
    refused: list[str] = []
    assert st.enter_die(faces[0], refused.append) is None  # the answers are not in yet
    assert st.enter_die(7, refused.append) is None  # not a face of a d6
    for face in faces[1:]:
        st.enter_die(face, refused.append)
    # the battlefield changes meanwhile (a drag elsewhere): the typed faces stay
    elsewhere = next(m.id for m in st.scenario.models if m.id not in (a, t))
    st.set_snapshot(st.snapshot.revised(moved(st.scenario, elsewhere, 1.0, 1.0)))
    runner.run_all()
    assert len(refused) == 1 and "d6 shows 1 to 6" in refused[0]
    assert list(st.dice.faces) == faces
    expected = engine.resolve(battle_of(st.scenario), AttackRequest(a, t), GivenDice(faces))
    res = st.current_view.resolution
    assert res is not None and res.damage == expected.damage


def test_a_superseded_scan_computes_no_more_pieces() -> None:
    runner = ManualRunner()
    scenario = demo("warcry")
    a, _ = first_pair(scenario)
    st, targets = coupled(scenario, runner=runner)
    st.set_attacker(a)
    first = targets.scan.plan
    assert first is not None and runner.jobs  # the first piece is asked for at once
    b = next(m.id for m in scenario.models if m.side != scenario.model(a).side)
    st.set_attacker(b)
    ran = [runner.run(0) for _ in range(len(runner.jobs))]
    assert ran[0] is False  # the first attacker's piece: cancelled before it ran
    runner.run_all()
    plan = targets.scan.plan
    assert plan is not first and plan.attacker == b and targets.scan.complete
    assert {s.target for s in targets.statuses()} == set(targets.enemies())
