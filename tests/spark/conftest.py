"""Fixtures of the Spark tests: one S3-compatible server on 127.0.0.1 (moto) and one local Spark session
per test run, a demo lake written by real writers.

Every test that uses the ``spark`` fixture is put in one xdist group, so a ``-n 2`` run still starts a
single session (a session costs ~10 s). The S3 server starts first and its endpoint and credentials go into
the environment before the JVM starts, so the Python workers Spark forks read s3:// through it too.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from lakestruct.spark import demolake

BUCKET = demolake.BUCKET


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "spark" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.spark)
            item.add_marker(pytest.mark.xdist_group("spark"))


@dataclass
class S3Server:
    """moto in server mode on 127.0.0.1, behind a WSGI middleware that counts the body bytes each GET serves."""

    endpoint: str
    served: Counter[str] = field(default_factory=Counter)  # "bucket/key" -> bytes sent by GET requests
    requests: Counter[str] = field(default_factory=Counter)
    stop: Callable[[], None] = lambda: None

    def reset(self) -> None:
        self.served.clear()
        self.requests.clear()

    def fs(self) -> Any:
        import s3fs

        return s3fs.S3FileSystem(anon=False, client_kwargs={"endpoint_url": self.endpoint}, skip_instance_cache=True)


def _counting(app: Any, server: S3Server) -> Any:
    def wrapped(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        key = environ.get("PATH_INFO", "").lstrip("/")
        body = app(environ, start_response)
        if environ.get("REQUEST_METHOD") != "GET":
            return body

        def counted() -> Iterator[bytes]:
            server.requests[key] += 1
            for chunk in body:
                server.served[key] += len(chunk)
                yield chunk
            if hasattr(body, "close"):
                body.close()

        return counted()

    return wrapped


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def s3() -> Iterator[S3Server]:
    pytest.importorskip("moto", reason="the S3 tests need moto[server] (pip install -e '.[dev]')")
    pytest.importorskip("s3fs", reason="the S3 tests need s3fs (pip install 'lakestruct[s3]')")
    from moto.server import DomainDispatcherApplication, create_backend_app
    from werkzeug.serving import make_server

    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    port = _free_port()
    server = S3Server(endpoint=f"http://127.0.0.1:{port}")
    httpd = make_server("127.0.0.1", port, _counting(DomainDispatcherApplication(create_backend_app), server), threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    env = {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_SESSION_TOKEN": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_ENDPOINT_URL": server.endpoint,
    }
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    server.stop = httpd.shutdown
    yield server
    httpd.shutdown()
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


@pytest.fixture(scope="session")
def spark(s3: S3Server) -> Iterator[Any]:
    """The run's one local Spark session (``local[2]``), lakestruct's sources registered."""
    pytest.importorskip("pyspark", reason="the Spark tests need PySpark (pip install 'lakestruct[spark]')")
    from lakestruct.spark.env import JavaMissingError, session

    try:
        s = session("local[2]", app_name="lakestruct-tests")
    except JavaMissingError as e:
        pytest.skip(str(e))
    yield s
    s.stop()


@pytest.fixture(scope="session")
def demo_lake(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("lake") / "lake"
    demolake.build(str(root), rows_per_file=5_000)
    return root
