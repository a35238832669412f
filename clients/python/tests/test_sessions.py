"""The sessions against two local HTTP servers, an "API" and an "S3", driven by the real datalake client.

The API answers a page of files whose next link is absolute, and a 302 to a presigned-looking URL on
the S3 server. Each server records the headers it received, so the tests see what was authorised.
"""

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import botocore.session
import pytest
from datalake import Archive

from datalake_aws import BearerTokenSession, SigV4Session
from datalake_aws.sessions import canonical_query_url, region_of

METADATA = {"version": 0, "start": 1426809920345, "end": None, "path": "/var/log/x.log", "where": "w",
            "what": "syslog", "hash": "0123456789abcdef0123456789abcdef", "work_id": None, "id": "f1"}


class Recorder(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        self.server.seen.append((self.path, dict(self.headers)))
        status, headers, body = self.server.answer(self)
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def serve(answer):
    server = ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    server.seen = []
    server.answer = answer
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture
def servers():
    s3 = serve(lambda h: (200, {"Content-Type": "text/plain"}, b"content of f1\n"))
    api_url = {}

    def api(h):
        auth = h.headers.get("Authorization", "")
        if h.server.refuse_with and not auth.endswith(h.server.accept_token or "\0"):
            return h.server.refuse_with, {"Content-Type": "application/json"}, b'{"message":"Unauthorized"}'
        if h.path.startswith("/v0/archive/files/?"):
            last = "cursor=" in h.path
            page = {"records": [{"url": "s3://b/f%d/data" % (2 if last else 1), "metadata": METADATA}],
                    "next": None if last else api_url["url"] + "/v0/archive/files/?what=syslog&cursor=abc"}
            return 200, {"Content-Type": "application/json"}, json.dumps(page).encode()
        if h.path == "/v0/archive/files/f1/metadata":
            return 200, {"Content-Type": "application/json"}, json.dumps(METADATA).encode()
        if h.path == "/v0/archive/files/f1/data":
            return 302, {"Location": "http://127.0.0.1:%d/b/f1/data?X-Amz-Signature=abc" % s3.server_port}, b""
        return 404, {"Content-Type": "application/json"}, b'{"message":"no","code":"NoSuchRoute"}'

    api_server = serve(api)
    api_server.refuse_with = None
    api_server.accept_token = None
    api_url["url"] = "http://127.0.0.1:%d" % api_server.server_port
    yield api_server, s3, api_url["url"]
    api_server.shutdown()
    s3.shutdown()


@pytest.fixture
def aws_env(monkeypatch, tmp_path):
    for name in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_REGION", "AWS_DEFAULT_REGION"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDLOCALTEST")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "secret")
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "credentials"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")


def sigv4(api_url):
    return SigV4Session(api_url=api_url, region="us-east-1")


def test_sigv4_signs_every_api_page_and_nothing_sent_to_s3(servers, aws_env):
    api, s3, api_url = servers
    archive = Archive(storage_url="s3://b", http_url=api_url, session=sigv4(api_url))

    urls = [r["url"] for r in archive.list("syslog", start=1, end=2)]
    fetched = archive.fetch(api_url + "/v0/archive/files/f1/data")

    assert urls == ["s3://b/f1/data", "s3://b/f2/data"]
    assert fetched.read() == b"content of f1\n"
    api_paths = [path for path, _ in api.seen]
    assert "/v0/archive/files/?what=syslog&cursor=abc" in api_paths, "the next link was followed"
    for path, headers in api.seen:
        assert headers["Authorization"].startswith(
            "AWS4-HMAC-SHA256 Credential=AKIDLOCALTEST/"), path
        assert "/us-east-1/execute-api/aws4_request, SignedHeaders=host;x-amz-date, Signature=" in \
            headers["Authorization"], path
        assert "X-Amz-Date" in headers, path
    assert [path for path, _ in s3.seen] == ["/b/f1/data?X-Amz-Signature=abc"]
    s3_headers = {name.lower() for name in s3.seen[0][1]}
    assert not {"authorization", "x-amz-date", "x-amz-security-token"} & s3_headers, s3_headers


def test_sigv4_sends_the_session_token_of_temporary_credentials_to_the_api_only(servers, aws_env, monkeypatch):
    api, s3, api_url = servers
    monkeypatch.setenv("AWS_SESSION_TOKEN", "temporary-token")
    archive = Archive(storage_url="s3://b", http_url=api_url, session=sigv4(api_url))

    archive.fetch(api_url + "/v0/archive/files/f1/data").read()

    assert all(headers.get("X-Amz-Security-Token") == "temporary-token" for _, headers in api.seen)
    assert "x-amz-security-token" in api.seen[0][1]["Authorization"]
    assert "X-Amz-Security-Token" not in s3.seen[0][1]


def test_sigv4_explains_a_refusal(servers, aws_env, caplog):
    api, _, api_url = servers
    api.refuse_with = 403
    archive = Archive(storage_url="s3://b", http_url=api_url, session=sigv4(api_url))

    with pytest.raises(Exception) as refused:
        list(archive.list("syslog", start=1, end=2))

    assert "(403)" in str(refused.value)
    assert "access key ending TEST" in caplog.text and "execute-api:Invoke" in caplog.text


def test_the_region_comes_from_the_url_then_the_environment(aws_env, monkeypatch):
    url = "https://abc123.execute-api.eu-west-3.amazonaws.com"
    assert SigV4Session(api_url=url).region == "eu-west-3"
    assert region_of("https://api.example.com") is None
    monkeypatch.setenv("AWS_DEFAULT_REGION", "ap-south-1")
    assert SigV4Session(api_url="https://api.example.com").region == "ap-south-1"
    monkeypatch.setenv("AWS_REGION", "us-west-2")
    assert SigV4Session(api_url="https://api.example.com").region == "us-west-2"


def test_an_api_on_this_machine_is_the_local_runner_and_signs_for_its_region(aws_env, monkeypatch):
    # No region variable, so that the datalake client's push and cat use AWS_ENDPOINT_URL_S3 (test_local_s3).
    assert SigV4Session(api_url="http://127.0.0.1:8080").region == "us-east-1"
    assert SigV4Session(api_url="http://localhost:18080").region == "us-east-1"
    monkeypatch.setenv("AWS_REGION", "eu-west-1")
    assert SigV4Session(api_url="http://127.0.0.1:8080").region == "eu-west-1", "a region set wins"


def test_no_region_or_no_credentials_is_one_clear_sentence(aws_env, monkeypatch):
    with pytest.raises(ValueError, match="set AWS_REGION"):
        SigV4Session(api_url="https://api.example.com")
    monkeypatch.delenv("AWS_ACCESS_KEY_ID")
    monkeypatch.delenv("AWS_SECRET_ACCESS_KEY")
    with pytest.raises(ValueError, match="No AWS credentials found"):
        SigV4Session(api_url="https://api.example.com", region="us-east-1",
                     botocore_session=botocore.session.Session())
    monkeypatch.delenv("DATALAKE_HTTP_URL", raising=False)
    with pytest.raises(ValueError, match="DATALAKE_HTTP_URL"):
        SigV4Session(region="us-east-1")


def test_the_query_is_signed_and_sent_in_canonical_form():
    assert canonical_query_url("http://h/p/?what=a+b&start=2026-01-01T00:00:00Z") == \
        "http://h/p/?what=a%20b&start=2026-01-01T00%3A00%3A00Z"
    assert canonical_query_url("http://h/p/") == "http://h/p/"


def test_bearer_token_from_the_environment_reaches_the_api_not_s3(servers, monkeypatch):
    api, s3, api_url = servers
    monkeypatch.setenv("DATALAKE_HTTP_URL", api_url)
    monkeypatch.setenv("DATALAKE_API_TOKEN", "tok-1")
    archive = Archive(storage_url="s3://b", http_url=api_url, session=BearerTokenSession())

    assert archive.fetch(api_url + "/v0/archive/files/f1/data").read() == b"content of f1\n"
    assert [headers.get("Authorization") for _, headers in api.seen] == ["Bearer tok-1", "Bearer tok-1"]
    assert "Authorization" not in s3.seen[0][1]


def test_bearer_token_command_runs_again_when_the_token_expired(servers, monkeypatch, tmp_path):
    api, _, api_url = servers
    counter = tmp_path / "n"
    counter.write_text("0")
    script = tmp_path / "token.py"
    script.write_text("import pathlib,sys\np=pathlib.Path(sys.argv[1])\nn=int(p.read_text())+1\n"
                      "p.write_text(str(n))\nprint('tok-%d' % n)\n")
    monkeypatch.delenv("DATALAKE_API_TOKEN", raising=False)
    monkeypatch.setenv("DATALAKE_API_TOKEN_COMMAND", "%s %s %s" % (sys.executable, script, counter))
    api.refuse_with = 401
    api.accept_token = "tok-2"
    archive = Archive(storage_url="s3://b", http_url=api_url, session=BearerTokenSession(api_url=api_url))

    urls = [r["url"] for r in archive.list("syslog", start=1, end=2)]

    assert urls == ["s3://b/f1/data", "s3://b/f2/data"]
    assert [headers.get("Authorization") for _, headers in api.seen] == ["Bearer tok-1", "Bearer tok-2",
                                                                         "Bearer tok-2"]


def test_bearer_without_a_token_says_what_to_set(monkeypatch):
    monkeypatch.delenv("DATALAKE_API_TOKEN", raising=False)
    monkeypatch.delenv("DATALAKE_API_TOKEN_COMMAND", raising=False)
    with pytest.raises(ValueError, match="DATALAKE_API_TOKEN"):
        BearerTokenSession(api_url="https://api.example.com")
