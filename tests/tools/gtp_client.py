"""A GTP engine as a child process, for the scripts in this folder."""
import subprocess


class Gtp:
    """Runs `argv` (in `cwd` when given; its stderr dropped when `quiet`)
    and speaks GTP to it one command at a time."""

    def __init__(self, argv, cwd=None, quiet=False):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL if quiet else None,
                                  text=True, cwd=cwd)

    def cmd(self, line):
        """The answer to `line` without its `=`, or RuntimeError on `?` or
        when the engine has died."""
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        out = []
        while True:
            l = self.p.stdout.readline()
            if l == "":
                raise RuntimeError(f"the engine died after '{line}'")
            l = l.rstrip("\n")
            if l == "" and out:
                break
            if l != "" or out:
                out.append(l)
        text = "\n".join(out)
        if not text.startswith("="):
            raise RuntimeError(f"{line}: {text}")
        return text[1:].strip()

    def close(self):
        try:
            self.cmd("quit")
        except Exception:
            pass
        self.p.wait()
