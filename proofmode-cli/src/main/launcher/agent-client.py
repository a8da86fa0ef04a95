#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Hands a `proofmode prove`, `verify`, `export`, `status` or `compare` command to its home's running agent, in milliseconds.

The launcher runs this before it starts a JVM, when an agent's socket exists: a JVM that only hands the
command over takes about 0.2 s to start and exit, several times the work of proving one photo. This
speaks the agent's wire format (org.proofmode.cli.agent.AgentProtocol, version 1) exactly as
org.proofmode.cli.agent.AgentClient does, and behaves the same way: the command's output and error
output are the agent's, its exit code is the agent's, and PROOFMODE_PASSPHRASE and PROOFMODE_PIN are never sent
(only their checks, which the agent compares with the secret it unlocked with: a command with another one runs
in a JVM of its own, where a wrong one fails).

Usage: agent-client.py JAR HOME ARG...
  JAR   the program's jar: the agent serves only commands of its own build (path, size, time)
  HOME  the command's PROOFMODE_HOME, absolute
Exit: the command's code; 1 if the agent stopped before the command ended; 141, quietly, when the reader of
the output went away (as a process killed by SIGPIPE); RUN_HERE (200) when the
command must run in a JVM instead (no agent listens, or it refused), after saying why on standard error
if the agent refused. Python 3.6 or later, standard library only.
"""
import os
import struct
import sys

try:
    # The C module itself: `socket` imports enum, selectors and collections, a third of this client's run.
    import _socket as socket
except ImportError:  # another Python implementation
    import socket

MAGIC = 0x504D4147  # "PMAG"
VERSION = 1
RUN = 0
OUT, ERR, EXIT, REFUSED = 1, 2, 3, 4
MAX_STRING = 1 << 20
RUN_HERE = 200
LOST = 1
SIGPIPE_EXIT = 128 + 13


def build(jar):
    """What AgentProtocol.build() says for this jar: its path, size and modification time in ms."""
    st = os.stat(jar)
    return "%s %d %d" % (jar, st.st_size, st.st_mtime_ns // 1000000)


def string(s):
    b = s.encode("utf-8", "replace")
    return struct.pack(">i", len(b)) + b


def unlock_check(secret):
    """What org.proofmode.cli.agent.UnlockCheck.of computes: the agent serves a command whose secret is its own."""
    import hashlib
    return hashlib.sha256(b"proofmode agent unlock check v1\0" + secret.encode("utf-8", "surrogateescape")).hexdigest()


def request(jar, home, args):
    env = dict(os.environ)
    for secret, check in (("PROOFMODE_PASSPHRASE", "PROOFMODE_PASSPHRASE_CHECK"), ("PROOFMODE_PIN", "PROOFMODE_PIN_CHECK")):
        value = env.pop(secret, None)
        if value:
            env[check] = unlock_check(value)
    env["PROOFMODE_HOME"] = home
    parts = [struct.pack(">iib", MAGIC, VERSION, RUN), string(build(jar)), string(os.getcwd()),
             # As System.console() != null: standard input and output are both terminals.
             struct.pack(">?", os.isatty(0) and os.isatty(1)),
             struct.pack(">i", len(args))]
    parts += [string(a) for a in args]
    parts.append(struct.pack(">i", len(env)))
    for k, v in env.items():
        parts += [string(k), string(v)]
    return b"".join(parts)


class Reader:
    """Reads exact byte counts from a socket, buffered."""

    def __init__(self, sock):
        self.sock = sock
        self.buf = b""

    def read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(max(65536, n - len(self.buf)))
            if not chunk:
                break
            self.buf += chunk
        b, self.buf = self.buf[:n], self.buf[n:]
        return b


def read_exactly(f, n):
    b = f.read(n)
    if len(b) != n:
        raise EOFError("the agent's answer ended early")
    return b


def read_int(f):
    return struct.unpack(">i", read_exactly(f, 4))[0]


def main(argv):
    if len(argv) < 3:
        sys.stderr.write("usage: agent-client.py JAR HOME ARG...\n")
        return RUN_HERE
    jar, home, args = argv[1], argv[2], argv[3:]
    sock_path = os.path.join(home, "agent", "agent.sock")
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(sock_path)
    except ConnectionRefusedError:
        # Left by an agent that died: nobody listens. Removed, so that the launcher starts a new one.
        try:
            os.unlink(sock_path)
        except OSError:
            pass
        return RUN_HERE
    except OSError:
        return RUN_HERE
    try:
        try:
            s.sendall(request(jar, home, args))
            f = Reader(s)
            out, err = sys.stdout.buffer, sys.stderr.buffer
            while True:
                t = f.read(1)
                if not t:
                    raise EOFError("no exit code")
                t = t[0]
                if t in (OUT, ERR):
                    n = read_int(f)
                    if n < 0 or n > MAX_STRING:
                        raise EOFError("agent frame of %d bytes" % n)
                    to = out if t == OUT else err
                    to.write(read_exactly(f, n))
                    to.flush()
                elif t == EXIT:
                    return read_int(f)
                elif t == REFUSED:
                    n = read_int(f)
                    if n < 0 or n > MAX_STRING:
                        raise EOFError("agent string of %d bytes" % n)
                    why = read_exactly(f, n).decode("utf-8", "replace")
                    err.write(("proofmode: agent: %s; running here\n" % why).encode("utf-8", "replace"))
                    err.flush()
                    return RUN_HERE
                else:
                    raise EOFError("unknown agent frame %d" % t)
        except BrokenPipeError:
            # Whoever read our output went away (`| head`): stop as a process killed by SIGPIPE does (exit
            # 141), quietly; closing the socket tells the agent, which stops the command.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            return SIGPIPE_EXIT
        except (OSError, EOFError) as e:
            sys.stderr.write("proofmode: the agent stopped before the command ended (%s); proofs it finished"
                             " are complete, run the command again for the rest\n" % e)
            return LOST
    finally:
        s.close()


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except KeyboardInterrupt:
        # As a JVM killed by Ctrl-C: the agent sees the closed socket and stops the command.
        sys.exit(130)
