"""moto's server (moto_server), made safe and its costs bounded, for the local stack and the tests (MotoServer
runs it).

moto 5.2.5 deletes an SQS message by rebuilding the queue's list of messages without holding the queue's
lock, which its sends hold: a message sent, or deleted, by another thread during the rebuild is lost, or
comes back from the dead, so that under a bulk push files went unindexed and others were indexed twice.
Here every change to a queue's messages holds its lock. moto 5.2.5 also computes every attribute of a queue, three of them by counting its messages, on each message
sent (for ContentBasedDeduplication) and each message received (for MessageRetentionPeriod): a backlog
of N messages costs O(N) a message, so the local pipeline slowed down with the square of a bulk push.
Each SNS topic appends every message it publishes to a list that nothing here reads, and each queue
remembers every receipt handle it ever deleted: both grow without bound. And werkzeug logs every
request, a fifth of moto's time under load. This launcher changes no answer: a queue's attributes are
computed when one is read, a topic keeps its last 100 notifications, a queue the receipt handles of its
last 100,000 deletes (against which a repeated delete succeeds), and only warnings and errors are logged.
"""

import collections
import collections.abc
import json
import logging
import os
import sys
import threading

from moto.core.utils import camelcase_to_underscores
from moto.server import main
from moto.sns import models as sns
from moto.sqs import models as sqs

NOTIFICATIONS_KEPT = 100
DELETED_HANDLES_KEPT = 100_000


class _Attributes(collections.abc.Mapping):
    """Queue.attributes as moto computes it, one attribute at a time, when it is read."""

    def __init__(self, queue):
        self._queue = queue
        names = list(queue.BASE_ATTRIBUTES)
        if queue.fifo_queue:
            names += queue.FIFO_ATTRIBUTES
        if queue.kms_master_key_id:
            names += queue.KMS_ATTRIBUTES
        if queue.policy:
            names.append("Policy")
        if queue.redrive_policy:
            names.append("RedrivePolicy")
        self._names = list(dict.fromkeys(names))

    def __getitem__(self, name):
        if name not in self._names:
            raise KeyError(name)
        if name == "Policy":
            return self._queue.policy
        if name == "RedrivePolicy":
            return json.dumps(self._queue.redrive_policy)
        value = getattr(self._queue, camelcase_to_underscores(name))
        return str(value).lower() if isinstance(value, bool) else value

    def __iter__(self):
        return iter(self._names)

    def __len__(self):
        return len(self._names)


class _RecentHandles(collections.abc.MutableSet):
    """The receipt handles of a queue's last deletes."""

    def __init__(self, kept=DELETED_HANDLES_KEPT):
        self._handles = collections.OrderedDict()
        self._kept = kept

    def __contains__(self, handle):
        return handle in self._handles

    def __iter__(self):
        return iter(self._handles)

    def __len__(self):
        return len(self._handles)

    def add(self, handle):
        self._handles[handle] = None
        self._handles.move_to_end(handle)
        while len(self._handles) > self._kept:
            self._handles.popitem(last=False)

    def discard(self, handle):
        self._handles.pop(handle, None)

    def update(self, handles):
        for handle in handles:
            self.add(handle)


def _locked(method, lock_of):
    def locked(self, *args, **kwargs):
        with lock_of(self, *args, **kwargs):
            return method(self, *args, **kwargs)

    return locked


def _bound():
    # Condition() holds an RLock, which a long poll's wait releases: a receive waiting blocks nobody.
    sqs.Queue.delete_message = _locked(sqs.Queue.delete_message, lambda queue, *a, **k: queue._messages_lock)
    sqs.SQSBackend.receive_message = _locked(
        sqs.SQSBackend.receive_message,
        lambda backend, *a, **k: backend.get_queue(k["queue_name"] if "queue_name" in k else a[0])._messages_lock)
    sqs.Queue.attributes = property(_Attributes)

    queue_init = sqs.Queue.__init__

    def init_queue(self, *args, **kwargs):
        queue_init(self, *args, **kwargs)
        self.deleted_messages = _RecentHandles()

    sqs.Queue.__init__ = init_queue

    topic_init = sns.Topic.__init__

    def init_topic(self, *args, **kwargs):
        topic_init(self, *args, **kwargs)
        self.sent_notifications = collections.deque(maxlen=NOTIFICATIONS_KEPT)

    sns.Topic.__init__ = init_topic

    logging.getLogger("werkzeug").setLevel(logging.WARNING)


def _exit_with_parent():
    # The end of stdin, the pipe from the JVM that started this server, ends it: a JVM killed outright
    # (kill -9, a test fork's timeout) runs no shutdown hook, and the server would otherwise outlive it.
    def watch():
        sys.stdin.buffer.read()
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


if __name__ == "__main__":
    _bound()
    _exit_with_parent()
    sys.exit(main(sys.argv[1:]))
