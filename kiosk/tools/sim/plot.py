"""``labyrinth-sim --plot FILE.png``: win rates with their 95% intervals, and game lengths.

Needs matplotlib (the optional ``plot`` extra); drawn offscreen (Agg), so it
works on a headless machine.
"""

from __future__ import annotations

from typing import Any

from kiosk import games


def plot(data: dict[str, Any], path: str) -> None:
    """Draw the figures of a labyrinth-sim result (its JSON) into a PNG file."""
    import matplotlib  # noqa: PLC0415 -- an optional extra (plot), only with --plot

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt  # noqa: PLC0415 -- an optional extra (plot); after matplotlib.use()
    from matplotlib.ticker import MaxNLocator  # noqa: PLC0415 -- an optional extra (plot), only with --plot

    players = data["players"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.2), dpi=100)
    labels = [f"{p['ai']}\n(entry {p['entry'] + 1})" if _repeated(players, p) else p["ai"] for p in players]
    rates = [100 * p["win_rate"] for p in players]
    lows = [100 * (p["win_rate"] - p["ci95"][0]) for p in players]
    highs = [100 * (p["ci95"][1] - p["win_rate"]) for p in players]
    xs = range(len(players))
    left.bar(xs, rates, color="#4c78a8", yerr=[lows, highs], capsize=6, ecolor="#222222")
    for x, rate in zip(xs, rates):
        # Inside the bar (clear of the interval's whiskers); above it when the bar is too short.
        inside = rate >= 12
        left.text(
            x - 0.2,
            rate / 2 if inside else rate + 1,
            f"{rate:.1f}%",
            ha="center",
            va="center" if inside else "bottom",
            fontsize=10,
            color="white" if inside else "#222222",
        )
    if len(players) > 1:
        left.axhline(100 / len(players), color="#888888", linestyle="--", linewidth=1, label="equal share")
        left.legend(loc="upper right", fontsize=8)
    left.set_xticks(list(xs), labels)
    left.set_ylim(0, 110)
    left.set_ylabel("games won (%), 95% Wilson interval")
    left.set_title("Win rate")

    counts = data["state"]["turns"]
    if counts:
        values = [v for v, _ in counts]
        weights = [n for _, n in counts]
        lo, hi = min(values), max(values)
        bins = range(lo, hi + 2, max(1, (hi - lo + 1) // 40 or 1))
        right.hist(values, bins=list(bins), weights=weights, color="#f58518")
        t = data["turns"]
        right.axvline(t["p50"], color="#222222", linewidth=1, label=f"median {t['p50']:.0f}")
        right.axvline(t["p99"], color="#222222", linestyle=":", linewidth=1, label=f"p99 {t['p99']:.0f}")
        right.legend(loc="upper right", fontsize=8)
    right.yaxis.set_major_locator(MaxNLocator(integer=True))
    right.set_xlabel("turns per game (all players)")
    right.set_ylabel("games")
    right.set_title("Game length")

    rules = [w.replace("_", " ") for w in games.get(data["game"]).words_of(data["rules"])]
    fig.suptitle(
        f"{data['game']}: {data['games']} games, seed {data['seed']}"
        + (", paired deals" if data.get("paired_deals") else "")
        + (f", {', '.join(rules)}" if rules else ""),
        fontsize=11,
    )
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _repeated(players: list[dict[str, Any]], p: dict[str, Any]) -> bool:
    return sum(1 for q in players if q["ai"] == p["ai"]) > 1
