"""labyrinth-sim at scale: streaming statistics, shards and merge, checkpoints, paired deals,
records, plots and a real Dask cluster on the loopback address."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.records import read_record
from kiosk.tools.sim import sweep as sim
from kiosk.tools.sim.stats import Counts, Durations, add_range, missing

BASE = ["--games", "12", "--ai", "medium,easy", "--seed", "5", "--turn-cap", "120", "--quiet"]
TIMING = ("decision_ms", "decision_cpu_ms", "seconds", "games_per_second_per_core", "games_per_cpu_second", "jobs")


def figures(data: dict) -> dict:
    """A result without what depends on the machine and the moment (timings, jobs, shard name)."""
    data = {k: v for k, v in data.items() if k not in TIMING and k != "shard"}
    data["state"] = {
        k: v for k, v in data["state"].items() if k not in ("decision_ms", "decision_cpu_ms", "seconds", "cpu_seconds")
    }
    return data


def run_json(argv, path: Path) -> dict:
    assert sim.main([*argv, "--json", str(path)]) == 0
    return json.loads(path.read_text())


# ----------------------------------------------------------------- the statistics


def test_histogram_percentiles_are_those_of_the_full_list():
    rng = random.Random(3)
    for n in (1, 2, 7, 100, 1001):
        values = [rng.randrange(20, 400) for _ in range(n)]
        counts = Counts()
        for v in values:
            counts.add(v)
        for q in (0, 1, 50, 90, 99, 100):
            assert counts.percentile(q) == sim.percentile(values, q)
        assert counts.mean() == sum(values) / n and counts.max() == max(values)


def test_decision_times_are_within_one_percent_and_merge_exactly():
    rng = random.Random(4)
    values = [rng.lognormvariate(0, 2) for _ in range(5000)]
    whole, a, b = Durations(), Durations(), Durations()
    whole.extend(values)
    a.extend(values[:1234])
    b.extend(values[1234:])
    a.merge(b)
    assert a.buckets == whole.buckets and a.count == whole.count and a.peak == whole.peak
    data = sorted(values)
    for q in (50, 90, 99):
        exact = data[max(0, -(-len(data) * q // 100) - 1)]
        assert abs(whole.percentile(q) - exact) <= 0.006 * exact


def test_game_ranges_refuse_a_game_counted_twice():
    ranges = add_range(add_range([], 0, 10), 20, 30)
    assert add_range(ranges, 10, 20) == [[0, 30]]
    assert missing(ranges, 0, 40) == [[10, 20], [30, 40]]
    with pytest.raises(ValueError, match="counted twice"):
        add_range(ranges, 5, 12)


# ----------------------------------------------------------------- shards and merge


def test_shards_merged_equal_one_run(tmp_path, capsys):
    whole = run_json([*BASE, "--jobs", "2"], tmp_path / "whole.json")
    parts = [run_json([*BASE, "--jobs", "1", "--shard", f"{i}/3"], tmp_path / f"s{i}.json") for i in (1, 2, 3)]
    assert [p["games"] for p in parts] == [4, 4, 4]
    assert not parts[0]["complete"] and parts[0]["shard"] == "1/3"
    out = tmp_path / "merged.json"
    assert sim.main(["merge", *(str(tmp_path / f"s{i}.json") for i in (3, 1, 2)), "--json", str(out)]) == 0
    merged = json.loads(out.read_text())
    assert merged["complete"] and figures(merged) == figures(whole)
    assert "medium" in capsys.readouterr().out


def test_merge_refuses_the_same_games_twice_and_other_sweeps(tmp_path, capsys):
    run_json([*BASE, "--jobs", "1", "--shard", "1/2"], tmp_path / "a.json")
    run_json([*BASE, "--jobs", "1", "--shard", "2/2", "--seed", "6"], tmp_path / "b.json")
    assert sim.main(["merge", str(tmp_path / "a.json"), str(tmp_path / "a.json")]) == 2
    assert "counted twice" in capsys.readouterr().err
    assert sim.main(["merge", str(tmp_path / "a.json"), str(tmp_path / "b.json")]) == 2
    assert "different sweeps" in capsys.readouterr().err
    (tmp_path / "c.json").write_text("{}")
    assert sim.main(["merge", str(tmp_path / "c.json")]) == 2
    assert "not a labyrinth-sim result" in capsys.readouterr().err


def test_a_card_game_sweep_merges_too(tmp_path):
    argv = ["--game", "cards", "--games", "6", "--ai", "easy,random,random", "--seed", "2", "--quiet", "--jobs", "1"]
    whole = run_json(argv, tmp_path / "w.json")
    for i in (1, 2):
        run_json([*argv, "--shard", f"{i}/2"], tmp_path / f"p{i}.json")
    assert (
        sim.main(["merge", str(tmp_path / "p1.json"), str(tmp_path / "p2.json"), "--json", str(tmp_path / "m.json")])
        == 0
    )
    assert figures(json.loads((tmp_path / "m.json").read_text())) == figures(whole)


# ----------------------------------------------------------------- checkpoints


class InterruptAfter(sim.Progress):
    """Ctrl-C arriving after `games` games have been counted."""

    def __init__(self, total, games):
        super().__init__(total, stream=open(os.devnull, "w"))
        self.limit = games

    def update(self, n):
        super().update(n)
        if self.done >= self.limit:
            raise KeyboardInterrupt


def test_an_interrupted_sweep_resumes_from_its_checkpoint(tmp_path):
    whole = run_json([*BASE, "--jobs", "1"], tmp_path / "whole.json")
    args, spec = sim.parse_args([*BASE, "--jobs", "1"])
    saved = tmp_path / "sweep.checkpoint"

    def save(summary):
        sim.write_json(str(saved), summary.to_json(12))

    with pytest.raises(KeyboardInterrupt):
        sim.run(spec, 12, 1, InterruptAfter(12, 5), checkpoint=save)
    partial = json.loads(saved.read_text())
    assert 5 <= partial["games"] < 12 and not partial["complete"]
    # The same command again, given the checkpoint, plays only the rest.
    done = run_json([*BASE, "--jobs", "1", "--checkpoint", str(saved)], tmp_path / "resumed.json")
    assert figures(done) == figures(whole)
    assert saved.exists()  # an explicit checkpoint is kept


def test_ctrl_c_saves_the_finished_games(tmp_path):
    """A real SIGINT to a running sweep: exit 130, and the checkpoint holds what was played."""
    saved = tmp_path / "ck.json"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kiosk.tools.sim.sweep",
            "--games",
            "2000",
            "--ai",
            "medium,easy",
            "--jobs",
            "2",
            "--quiet",
            "--checkpoint",
            str(saved),
            "--checkpoint-every",
            "0",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while not saved.exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert saved.exists(), proc.stderr.read() if proc.poll() is not None else "no checkpoint in 120 s"
        before = json.loads(saved.read_text())["games"]
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    after = json.loads(saved.read_text())
    assert after["games"] >= before > 0 and not after["complete"]
    assert "run the same command again" in err
    assert "PARTIAL" in out
    assert sim.Summary.from_state(after["state"]).games == after["games"]


def test_a_checkpoint_of_another_sweep_is_not_used(tmp_path, capsys):
    run_json([*BASE, "--jobs", "1", "--checkpoint", str(tmp_path / "ck.json")], tmp_path / "a.json")
    assert sim.main([*BASE, "--jobs", "1", "--seed", "9", "--checkpoint", str(tmp_path / "ck.json")]) == 2
    assert "checkpoint of another sweep" in capsys.readouterr().err


def test_the_default_checkpoint_goes_once_the_json_is_written(tmp_path):
    run_json([*BASE, "--jobs", "1"], tmp_path / "r.json")
    assert not (tmp_path / "r.json.checkpoint").exists()


# ----------------------------------------------------------------- paired deals, limits, longest game


def test_paired_deals_by_default_when_levels_differ(tmp_path):
    data = run_json(
        ["--games", "5", "--ai", "medium,easy", "--turn-cap", "100", "--quiet", "--jobs", "1"], tmp_path / "p.json"
    )
    assert data["paired_deals"] is True and data["games"] == 6 and data["deals"] == 3
    args, spec = sim.parse_args(["--ai", "medium,easy"])
    assert [sim.game_seed(spec, i) for i in range(4)][::2] == [sim.game_seed(spec, i) for i in range(4)][1::2]
    assert [sim.seating(spec, i) for i in (0, 1)] == [[0, 1], [1, 0]]
    same = run_json(
        ["--games", "3", "--ai", "easy", "--players", "2", "--turn-cap", "60", "--quiet", "--jobs", "1"],
        tmp_path / "s.json",
    )
    assert same["paired_deals"] is False and same["games"] == 3
    _, unpaired = sim.parse_args(["--ai", "medium,easy", "--no-paired"])
    assert sim.game_seed(unpaired, 0) != sim.game_seed(unpaired, 1)


def test_json_reports_the_longest_game_and_turn_limit_games(tmp_path):
    data = run_json([*BASE, "--jobs", "1"], tmp_path / "l.json")
    longest = data["longest_game"]
    assert longest["turns"] == data["turns"]["max"] == max(v for v, _ in data["state"]["turns"])
    args, spec = sim.parse_args(BASE)
    assert longest["seed"] == sim.game_seed(spec, longest["game"])
    assert data["turn_limit_games"] == 0 and data["turn_limit"] == 0


# ----------------------------------------------------------------- records and pictures


def test_records_of_simulated_games_read_back(tmp_path):
    folder = tmp_path / "records"
    data = run_json(
        [
            "--games",
            "4",
            "--ai",
            "medium,easy",
            "--turn-cap",
            "300",
            "--quiet",
            "--jobs",
            "2",
            "--records",
            str(folder),
        ],
        tmp_path / "r.json",
    )
    files = sorted(folder.iterdir())
    assert len(files) == 4
    winners = {"medium": 0, "easy": 0}
    for f in files:
        record = read_record(f.read_text())
        if record.tags["Result"] not in ("*", "none"):
            colour = record.tags["Result"]
            seat = [p.partition(":")[0] for p in record.tags["Players"].split()].index(colour)
            winners[record.levels[seat]] += 1
    assert winners == {p["ai"]: p["wins"] for p in data["players"]}


def test_plot_draws_a_picture(tmp_path):
    image = pytest.importorskip("matplotlib.image")
    run_json([*BASE, "--jobs", "1", "--plot", str(tmp_path / "p.png")], tmp_path / "p.json")
    pixels = image.imread(str(tmp_path / "p.png"))
    assert pixels.shape[0] >= 300 and pixels.shape[1] >= 600
    assert pixels[..., :3].std() > 0.05  # not a blank canvas


@pytest.mark.slow
def test_a_dask_cluster_gives_the_local_result(tmp_path):
    distributed = pytest.importorskip("distributed")
    local = run_json([*BASE, "--jobs", "1"], tmp_path / "local.json")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None, silence_logs=40
    ) as cluster:
        assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        with distributed.Client(cluster) as client:
            pids = client.run(os.getpid)
        assert len(set(pids.values())) == 2 and os.getpid() not in pids.values()
        remote = run_json([*BASE, "--scheduler", cluster.scheduler_address], tmp_path / "dask.json")
    assert figures(remote) == figures(local)


def test_an_unreachable_scheduler_is_a_clear_error(capsys, monkeypatch):
    pytest.importorskip("distributed")
    from kiosk.tools.sim import cluster as sim_cluster

    monkeypatch.setattr(sim_cluster, "CONNECT_TIMEOUT", 2.0)
    assert sim.main([*BASE, "--scheduler", "tcp://127.0.0.1:9", "--games", "2"]) == 1
    assert "cannot reach the Dask scheduler" in capsys.readouterr().err


def test_turn_limit_ends_games_with_winners_and_is_reported(tmp_path):
    folder = tmp_path / "records"
    data = run_json(
        [
            "--games",
            "4",
            "--ai",
            "medium,easy",
            "--turn-limit",
            "12",
            "--quiet",
            "--jobs",
            "1",
            "--records",
            str(folder),
        ],
        tmp_path / "t.json",
    )
    assert data["turn_limit"] == 12 and data["turns"]["max"] <= 12
    assert data["draws"] == 0 and sum(p["wins"] for p in data["players"]) >= data["games"]
    limited = 0
    for f in folder.iterdir():
        record = read_record(f.read_text())
        final = record.final()
        if record.tags["End"] == "turn limit":
            limited += 1
            found = [len(p.found) for p in final.players]
            assert {final.players[i].color for i, n in enumerate(found) if n == max(found)} == set(
                record.tags["Result"].split()
            )
    assert limited == data["turn_limit_games"] > 0
