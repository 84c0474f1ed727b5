"""A render worker ends with the process that started it, however that one ended.

The workers of `render.pool` block on their job queue, whose pipe every process of the pool
holds open, so the death of the bot alone never wakes them: after a SIGKILL (or an OOM kill)
they used to live on, parented to init, each with its prepared maps (~100-300 MB). So each
worker watches its parent: multiprocessing gives a spawned process a sentinel of its parent
(on POSIX the read end of a pipe whose only write end the parent holds, on Windows the
parent's process handle), ready the moment the parent is gone. A thread waiting on it ends
the worker at once, without running any clean-up (a worker holds nothing that needs one).

Once the workers are gone, multiprocessing's resource tracker — whose pipe the parent and the
workers held — reads its end of file and exits too.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import threading


def exit_with_parent() -> None:
    """In a worker process: exit as soon as the parent process is gone (a no-op in the process
    that was not started by multiprocessing)."""
    parent = multiprocessing.parent_process()
    if parent is None or parent.sentinel is None:
        return
    sentinel = parent.sentinel

    def watch() -> None:
        multiprocessing.connection.wait([sentinel])
        os._exit(0)  # the parent is gone: nobody waits for this worker's results any more

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
