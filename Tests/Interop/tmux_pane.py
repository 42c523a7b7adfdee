"""A tmux server of its own for the full-screen tests (private socket, no config)."""
import os
import shutil
import subprocess
import tempfile
import time


class Tmux:
    """A tmux server of its own (private socket, no config), driving one pane."""

    def __init__(self):
        self.folder = tempfile.mkdtemp(prefix="nt-tmux-")
        self.socket = os.path.join(self.folder, "socket")

    def run(self, *args):
        result = subprocess.run(["tmux", "-S", self.socket, "-f", "/dev/null"] + list(args),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=10)
        assert result.returncode == 0, result.stderr.decode()
        return result.stdout.decode(errors="replace")

    def start(self, columns, rows, command):
        self.run("new-session", "-d", "-s", "t", "-x", str(columns), "-y", str(rows), command)

    def capture(self, colors=False):
        return self.run("capture-pane", "-t", "t", "-p", *(["-e"] if colors else []))

    def alternate_screen(self):
        return self.run("display-message", "-t", "t", "-p", "#{alternate_on}").strip() == "1"

    def keys(self, text):
        self.run("send-keys", "-t", "t", "-l", text)

    def resize(self, columns, rows):
        self.run("resize-window", "-t", "t", "-x", str(columns), "-y", str(rows))

    def wait(self, condition, timeout):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if condition():
                return True
            time.sleep(0.05)
        return condition()

    def stop(self):
        subprocess.run(["tmux", "-S", self.socket, "-f", "/dev/null", "kill-server"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)
