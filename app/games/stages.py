"""Where the server's CPU time goes, by stage of an action (issue 17; `make bench`).

Cheap timers: each stage adds the CPU time of the thread that ran it (`thread_time`, so
a worker thread's stage does not count what the event loop did meanwhile, nor the
reverse) to a total per stage. Only blocks that never await are timed, so no other
task's work falls inside one. The timers run only when switched on (MIDWAY_BENCH=1);
off, `clock` and `lap` return at once.

The bench reads the totals and the process's CPU time from GET /api/_bench/stages at the
start and the end of its measured window; what the stages do not cover (uvicorn's HTTP
and websocket protocol, the middleware, FastAPI's routing and validation, the event
loop, thread hops) is the rest, printed as the `http` stage.
"""

from __future__ import annotations

import threading
import time
from typing import Any


class Stages:
    def __init__(self) -> None:
        self.enabled = False
        self._local = threading.local()
        self._tallies: list[tuple[dict[str, float], dict[str, int]]] = []  # one per thread
        self._lock = threading.Lock()  # only to add a thread's tallies to the list

    def _mine(self) -> tuple[dict[str, float], dict[str, int]]:
        """The calling thread's own totals: only it writes them, so no lock per lap."""
        try:
            tallies: tuple[dict[str, float], dict[str, int]] = self._local.tallies
        except AttributeError:
            tallies = self._local.tallies = ({}, {})
            with self._lock:
                self._tallies.append(tallies)
        return tallies

    def clock(self) -> float:
        """The calling thread's CPU time now (0 when off)."""
        return time.thread_time() if self.enabled else 0.0

    def lap(self, name: str, since: float) -> float:
        """Add the thread's CPU time since `since` (a `clock`) to stage `name`; the
        clock now, for the next stage."""
        if not self.enabled:
            return 0.0
        now = time.thread_time()
        cpu = self._mine()[0]
        cpu[name] = cpu.get(name, 0.0) + (now - since)
        return now

    def count(self, name: str) -> None:
        if self.enabled:
            counts = self._mine()[1]
            counts[name] = counts.get(name, 0) + 1

    def collecting(self, phase: str, info: dict[str, Any]) -> None:
        """A `gc.callbacks` entry: the cyclic collector's CPU time, by generation (it
        runs inside whatever stage allocated last, so it is counted there too)."""
        if not self.enabled:
            return
        if phase == "start":
            self._local.gc_start = time.thread_time()
            return
        started = getattr(self._local, "gc_start", None)
        if started is not None:
            cpu = self._mine()[0]
            name = f"gc{info.get('generation', '')}"
            cpu[name] = cpu.get(name, 0.0) + (time.thread_time() - started)

    def read(self) -> dict[str, Any]:
        """The totals so far, with the whole process's CPU time (every thread)."""
        cpu: dict[str, float] = {}
        counts: dict[str, int] = {}
        with self._lock:
            tallies = list(self._tallies)
        for mine, counted in tallies:
            for name, seconds in list(mine.items()):
                cpu[name] = cpu.get(name, 0.0) + seconds
            for name, n in list(counted.items()):
                counts[name] = counts.get(name, 0) + n
        collector = {n: cpu.pop(n) for n in sorted(cpu) if n.startswith("gc")}
        return {
            "process_cpu_s": time.process_time(),
            "stages_cpu_s": cpu,
            "gc_cpu_s": collector,
            "counts": counts,
        }


STAGES = Stages()
