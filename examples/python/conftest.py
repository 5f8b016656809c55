"""pytest fixtures that run teamchat-mock for the tests beside them.

The mock is started once per test session on a free port (``--port 0``; the address is read
from its first line of output) and put back to its fixture before every test, so that tests
do not see each other's messages, scenarios or journal entries.

Which mock to run: the command in ``TEAMCHAT_MOCK`` (for example ``./teamchat-mock``, the single
executable, or ``npx teamchat-mock``), by default ``teamchat-mock`` on ``PATH``.
"""

import os
import queue
import re
import shlex
import subprocess
import threading

import pytest
import requests

START_TIMEOUT_SECONDS = 60


class Mock:
    """A running mock: its address and the calls of its control API (``/__mock``)."""

    def __init__(self, base_url):
        self.base_url = base_url
        self.api_url = base_url + "/api/v1"
        self._control = requests.Session()

    def _call(self, method, path, json=None):
        # The control API takes every state change as JSON only (a web page cannot forge that).
        if method != "GET" and json is None:
            json = {}
        response = self._control.request(method, self.base_url + "/__mock" + path, json=json, timeout=10)
        response.raise_for_status()
        return response.json()

    def reset(self):
        """State back to the fixture, scenarios off, and an empty journal."""
        self._call("POST", "/reset", {})
        self._call("DELETE", "/scenarios")
        self._call("DELETE", "/journal")

    def activate(self, scenario):
        """Turns on a scenario of the mock's scenarios/ folder, e.g. "failed-to-connect-bouncer"."""
        self._call("POST", "/scenarios", {"name": scenario})

    def verify(self, **criteria):
        """How many requests the journal holds that match (operation, user, status, params)."""
        return self._call("POST", "/journal/verify", criteria)["count"]

    def client(self, email, api_key):
        """A requests session that calls the API as this user (HTTP Basic: email and API key)."""
        session = requests.Session()
        session.auth = (email, api_key)
        return session


def _first_line(stream, lines):
    lines.put(stream.readline())


@pytest.fixture(scope="session")
def mock_server():
    command = shlex.split(os.environ.get("TEAMCHAT_MOCK", "teamchat-mock"))
    process = subprocess.Popen(
        [*command, "--port", "0", "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines = queue.Queue()
    threading.Thread(target=_first_line, args=(process.stdout, lines), daemon=True).start()
    try:
        line = lines.get(timeout=START_TIMEOUT_SECONDS)
    except queue.Empty:
        line = ""
    match = re.search(r"listening on (http://[^\s)]+)", line)
    if not match:
        process.kill()
        raise RuntimeError("teamchat-mock did not start: " + line + process.stderr.read())
    try:
        yield Mock(match.group(1))
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture
def mock(mock_server):
    """The session's mock, reset for this test."""
    mock_server.reset()
    return mock_server
