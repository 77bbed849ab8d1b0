"""labyrinth-sim on a Dask cluster (``--scheduler ADDRESS``): the same chunks, other machines.

Each chunk of games is one task; a task returns the chunk's summary (small
histograms), and the parent merges them exactly as it merges local chunks,
so a cluster run gives the same figures as a local run of the same seeds.
Every worker needs this project installed (the same version) to import
``kiosk.tools.sim.sweep``; docs/ai.md says how to set up a cluster of machines.
"""

from __future__ import annotations

from typing import Any, Callable

#: Seconds to wait for the scheduler to answer.
CONNECT_TIMEOUT = 30.0


class ClusterWorkers:
    """Submits chunks to the Dask scheduler at `address` (needs the `distributed` package)."""

    def __init__(self, address: str, task: Callable[[Any], Any], timeout: float | None = None) -> None:
        try:
            from distributed import Client  # noqa: PLC0415 -- an optional extra (cluster), only with --scheduler
        except ImportError:
            raise ImportError(
                "--scheduler needs the 'distributed' package: pip install 'labyrinth-kiosk[cluster]'"
            ) from None
        try:
            self.client = Client(address, timeout=timeout or CONNECT_TIMEOUT)  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError) as exc:
            raise OSError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
        threads = sum(self.client.nthreads().values())  # type: ignore[no-untyped-call]
        if not threads:
            self.client.close()  # type: ignore[no-untyped-call]
            raise OSError(f"the Dask scheduler at {address} has no workers")
        self.threads = threads
        self.task = task  # what each chunk runs: kiosk.tools.sim.sweep.play_chunk

    @property
    def slots(self) -> int:
        return self.threads

    def submit(self, job: Any) -> Any:
        # pure=False: a chunk is played again if submitted again (no result cache across sweeps).
        return self.client.submit(self.task, job, pure=False)

    def close(self) -> None:
        try:
            self.client.close()  # type: ignore[no-untyped-call]
        except Exception:  # closing a client of a vanished cluster must not hide the real error
            pass
