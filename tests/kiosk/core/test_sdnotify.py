"""sd_notify against a real AF_UNIX datagram socket standing in for systemd's NOTIFY_SOCKET."""

from __future__ import annotations

import logging
import os
import socket
import uuid

import pytest

from kiosk.core.sdnotify import Notifier, Watchdog


@pytest.fixture
def systemd(tmp_path):
    """A bound datagram socket at a path, as systemd creates it for a Type=notify service."""
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    yield sock, str(path)
    sock.close()


def received(sock: socket.socket) -> list[str]:
    return sock.recv(4096).decode().split("\n")


def nothing_waiting(sock: socket.socket) -> bool:
    sock.setblocking(False)
    try:
        sock.recv(4096)
    except BlockingIOError:
        return True
    finally:
        sock.settimeout(2)
    return False


def test_ready_status_watchdog_stopping(systemd):
    sock, path = systemd
    n = Notifier({"NOTIFY_SOCKET": path})
    assert n.enabled
    assert n.ready("attract mode")
    assert received(sock) == ["READY=1", "STATUS=attract mode"]
    assert n.status("game of 3 players,\nturn 12")
    assert received(sock) == ["STATUS=game of 3 players, turn 12"]  # one line, always
    assert n.watchdog()
    assert received(sock) == ["WATCHDOG=1"]
    assert n.stopping()
    assert received(sock) == ["STOPPING=1"]
    n.close()


def test_each_message_comes_from_this_process(systemd):
    """systemd checks the sender's PID (NotifyAccess=); a datagram carries real credentials."""
    sock, path = systemd
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
    Notifier({"NOTIFY_SOCKET": path}).ready()
    msg, ancdata, _, _ = sock.recvmsg(4096, socket.CMSG_SPACE(12))
    assert msg == b"READY=1"
    level, kind, data = ancdata[0]
    assert (level, kind) == (socket.SOL_SOCKET, socket.SCM_CREDENTIALS)
    assert int.from_bytes(data[:4], "little") == os.getpid()


def test_abstract_namespace_socket():
    name = f"labyrinth-test-{uuid.uuid4().hex}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(2)
    try:
        n = Notifier({"NOTIFY_SOCKET": "@" + name})
        assert n.ready()
        assert received(sock) == ["READY=1"]
    finally:
        sock.close()


def test_no_op_without_systemd():
    n = Notifier({})
    assert not n.enabled
    assert n.ready("x") is False and n.watchdog() is False and n.stopping() is False
    assert n.watchdog_interval_s is None
    assert Watchdog(n).kick() is False


def test_an_unknown_socket_kind_is_ignored_with_a_warning(caplog):
    with caplog.at_level(logging.WARNING, logger="kiosk.core.sdnotify"):
        n = Notifier({"NOTIFY_SOCKET": "vsock:2:1234"})
    assert not n.enabled and "vsock:2:1234" in caplog.text


def test_a_vanished_socket_is_logged_once_and_never_raises(tmp_path, caplog):
    n = Notifier({"NOTIFY_SOCKET": str(tmp_path / "gone")})
    with caplog.at_level(logging.WARNING, logger="kiosk.core.sdnotify"):
        assert n.ready() is False
        assert n.watchdog() is False
    assert caplog.text.count("could not notify systemd") == 1


def test_the_socket_coming_back_works_again(tmp_path):
    path = tmp_path / "notify"
    n = Notifier({"NOTIFY_SOCKET": str(path)})
    assert n.watchdog() is False
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    try:
        assert n.watchdog() is True
        assert received(sock) == ["WATCHDOG=1"]
    finally:
        sock.close()


def test_watchdog_interval_is_half_of_watchdog_usec():
    n = Notifier({"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"})
    assert n.watchdog_interval_s == 15.0
    assert Notifier({"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "0"}).watchdog_interval_s is None
    assert Notifier({"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "soon"}).watchdog_interval_s is None


def test_watchdog_kick_pings_at_half_the_interval(systemd):
    sock, path = systemd
    now = [100.0]
    n = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "4000000"})  # 4 s -> ping every 2 s
    dog = Watchdog(n, clock=lambda: now[0])
    assert dog.enabled
    sent = []
    for _ in range(20):  # a main loop at 4 Hz (exact in binary) for 5 s
        sent.append(dog.kick())
        now[0] += 0.25
    times = [100 + 0.25 * i for i, s in enumerate(sent) if s]
    assert len(times) == 3 and times[0] == 100.0
    assert times[1] - times[0] == pytest.approx(2.0) and times[2] - times[1] == pytest.approx(2.0)
    assert [received(sock) for _ in times] == [["WATCHDOG=1"]] * 3
    assert nothing_waiting(sock)


def test_a_hung_loop_stops_the_pings(systemd):
    """No thread pings on our behalf: if kick() is not called, systemd hears nothing."""
    sock, path = systemd
    now = [0.0]
    dog = Watchdog(Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "1000000"}), clock=lambda: now[0])
    assert dog.kick()
    received(sock)
    now[0] += 10  # the loop hangs for 10 s
    assert nothing_waiting(sock)
