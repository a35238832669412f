"""The explorer proxy in process, in front of a small local "API": what it serves, forwards and refuses."""

import http.client
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests

from datalake_aws import explore
from datalake_aws.explore import READY, ExplorerProxy, page_files


class FakeApi(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        self.server.seen.append((self.path, self.headers.get("Cookie")))
        if self.path.endswith("/data"):
            self.send_response(302)
            self.send_header("Location", "http://127.0.0.1:9/bucket/f1/data?X-Amz-Signature=abc")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = json.dumps({"feeds": [], "next": None}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Set-Cookie", "api=1")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def serve(tmp_path, api_path=""):
    """The proxy in front of a FakeApi whose URL is its address plus ``api_path`` (a stage)."""
    (tmp_path / "index.html").write_text("<title>datalake explorer</title>")
    (tmp_path / "explorer.js").write_text("// js")
    api = ThreadingHTTPServer(("127.0.0.1", 0), FakeApi)
    api.seen = []
    threading.Thread(target=api.serve_forever, daemon=True).start()
    server = ExplorerProxy(0, "http://127.0.0.1:%d%s" % (api.server_port, api_path), requests.Session(),
                           page_files(str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, api


@pytest.fixture
def proxy(tmp_path):
    server, api = serve(tmp_path)
    yield server, api
    server.shutdown()
    api.shutdown()


def get(server, path, host=None, method="GET", headers=None):
    connection = http.client.HTTPConnection("127.0.0.1", server.server_port, timeout=10)
    connection.putrequest(method, path, skip_host=True)
    connection.putheader("Host", host or "127.0.0.1:%d" % server.server_port)
    connection.putheader("Cookie", "browser=secret")
    for name, value in (headers or {}).items():
        connection.putheader(name, value)
    connection.endheaders()
    response = connection.getresponse()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()


def test_serves_the_page_at_the_root_with_a_strict_policy(proxy):
    server, _ = proxy
    status, headers, body = get(server, "/")
    assert status == 200 and b"datalake explorer" in body
    assert headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in headers["content-security-policy"]
    assert get(server, "/explorer.js")[0] == 200
    assert get(server, "/../etc/passwd")[0] == 404


def test_forwards_api_calls_without_the_browsers_cookies_and_passes_redirects_on(proxy):
    server, api = proxy
    status, headers, body = get(server, "/v0/archive/feeds/?what=syslog")
    redirect = get(server, "/v0/archive/files/f1/data")

    assert status == 200 and json.loads(body) == {"feeds": [], "next": None}
    assert "set-cookie" not in headers
    assert api.seen[0] == ("/v0/archive/feeds/?what=syslog", None)
    assert redirect[0] == 302
    assert redirect[1]["location"] == "http://127.0.0.1:9/bucket/f1/data?X-Amz-Signature=abc"


def test_refuses_other_hosts_and_methods(proxy):
    server, api = proxy
    assert get(server, "/v0/archive/feeds/", host="evil.example")[0] == 403
    assert get(server, "/v0/archive/feeds/", host="evil.example:%d" % server.server_port)[0] == 403
    assert get(server, "/v0/archive/feeds/", method="POST")[0] == 405
    assert get(server, "/v0/archive/feeds/", host="localhost:%d" % server.server_port)[0] == 200
    assert len(api.seen) == 1, "nothing refused reached the API"


def test_refuses_what_another_sites_page_sends_and_paths_that_leave_v0(proxy):
    server, api = proxy
    own = "http://127.0.0.1:%d" % server.server_port
    # a GET another site's page makes the browser send (an image, a script) would go out signed
    assert get(server, "/v0/archive/feeds/", headers={"Sec-Fetch-Site": "cross-site"})[0] == 403
    assert get(server, "/v0/archive/feeds/", headers={"Sec-Fetch-Site": "same-site"})[0] == 403
    assert get(server, "/v0/archive/feeds/", headers={"Origin": "https://evil.example"})[0] == 403
    # a path that leaves /v0/ once normalised, or a request target that is not a path
    assert get(server, "/v0/../secret")[0] == 400
    assert get(server, "/v0/./archive/feeds/")[0] == 400
    assert get(server, "x.evil.example:/v0/archive/feeds/")[0] == 400
    assert api.seen == [], "nothing refused reached the API"
    # the page's own calls, and one typed in the address bar, go through
    assert get(server, "/v0/archive/feeds/", headers={"Sec-Fetch-Site": "same-origin", "Origin": own})[0] == 200
    assert get(server, "/v0/archive/feeds/?what=a", headers={"Sec-Fetch-Site": "none"})[0] == 200
    assert [path for path, _ in api.seen] == ["/v0/archive/feeds/", "/v0/archive/feeds/?what=a"]


def test_an_api_under_a_stage_is_paged_through_its_next_links(tmp_path):
    server, api = serve(tmp_path, "/prod/")
    try:
        # the page's own calls, and a next link as the API writes it (https://host/prod/v0/...), made local
        first = get(server, "/v0/archive/files/?what=a&start=1&end=2")
        following = get(server, "/prod/v0/archive/files/?what=a&cursor=c2")
        leaving = get(server, "/prod/v0/../secret")
        elsewhere = get(server, "/prod/index.html")
    finally:
        server.shutdown()
        api.shutdown()
    assert (first[0], following[0], leaving[0], elsewhere[0]) == (200, 200, 400, 404)
    assert [path for path, _ in api.seen] == ["/prod/v0/archive/files/?what=a&start=1&end=2",
                                              "/prod/v0/archive/files/?what=a&cursor=c2"]


def test_credentials_that_fail_are_a_json_answer_without_a_traceback(tmp_path):
    class Failing(requests.Session):
        def get(self, *args, **kwargs):
            raise ValueError("the token command failed (exit 3): secret-ish stderr")

    (tmp_path / "index.html").write_text("<title>x</title>")
    server = ExplorerProxy(0, "http://127.0.0.1:9", Failing(), page_files(str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        status, headers, body = get(server, "/v0/archive/feeds/")
    finally:
        server.shutdown()
    assert status == 502 and headers["content-type"] == "application/json"
    assert json.loads(body)["code"] == "ProxyCredentials"
    assert b"secret-ish" not in body


def test_an_api_url_without_a_scheme_is_refused_at_start_up(tmp_path, monkeypatch, capsys):
    (tmp_path / "index.html").write_text("<title>x</title>")
    # it would otherwise serve "ready" and answer 502 to every call, requests refusing the URL
    monkeypatch.setattr(ExplorerProxy, "serve_forever", lambda self: None)
    with pytest.raises(SystemExit) as refused:
        explore.main(["--api", "abc123.execute-api.us-east-1.amazonaws.com", "--auth", "none", "--port", "0",
                      "--page-dir", str(tmp_path)])
    out, err = capsys.readouterr()
    assert refused.value.code == 2 and READY not in out
    assert "must start with https:// or http://" in err and "abc123.execute-api" in err


@pytest.fixture
def environ(monkeypatch):
    """The process environment without DATALAKE_ variables, restored afterwards (a config file adds to it)."""
    saved = dict(os.environ)
    for name in [name for name in os.environ if name.startswith("DATALAKE_")]:
        monkeypatch.delenv(name)
    yield os.environ
    os.environ.clear()
    os.environ.update(saved)


def test_the_datalake_clients_config_file_and_session_class_give_the_defaults(tmp_path, environ):
    config = tmp_path / "datalake.env"
    config.write_text("DATALAKE_HTTP_URL=https://abc123.execute-api.eu-west-1.amazonaws.com/prod\n"
                      "DATALAKE_SESSION_CLASS=datalake_aws.BearerTokenSession\n")
    environ["DATALAKE_CONFIG"] = str(config)

    from_file = explore.options(["--page-dir", str(tmp_path)])
    given = explore.options(["--page-dir", str(tmp_path), "--api", "http://127.0.0.1:8080", "--auth", "iam"])

    assert (from_file.api, from_file.auth) == ("https://abc123.execute-api.eu-west-1.amazonaws.com/prod", "jwt")
    assert (given.api, given.auth) == ("http://127.0.0.1:8080", "iam")


def test_a_variable_set_wins_over_the_config_file_as_in_the_datalake_client(tmp_path, environ):
    config = tmp_path / "datalake.env"
    config.write_text("DATALAKE_HTTP_URL=https://from-the-file.example.com\n")
    environ.update({"DATALAKE_CONFIG": str(config), "DATALAKE_HTTP_URL": "https://from-the-environment.example.com",
                    "DATALAKE_SESSION_CLASS": "datalake_aws.SigV4Session"})

    args = explore.options(["--page-dir", str(tmp_path)])

    assert (args.api, args.auth) == ("https://from-the-environment.example.com", "iam")


@pytest.mark.parametrize("variable, value, sentence", [
    ("DATALAKE_CONFIG", "/nonexistent/datalake.env", "DATALAKE_CONFIG names /nonexistent/datalake.env, which does "
                                                     "not exist."),
    ("DATALAKE_SESSION_CLASS", "mycompany.KerberosSession", "DATALAKE_SESSION_CLASS is mycompany.KerberosSession, "
                                                            "which the proxy cannot sign with: give --auth iam, jwt "
                                                            "or none."),
])
def test_a_configuration_it_cannot_follow_is_one_sentence(tmp_path, environ, capsys, variable, value, sentence):
    environ.update({variable: value, "DATALAKE_HTTP_URL": "https://datalake.example.com"})
    with pytest.raises(SystemExit) as refused:
        explore.options(["--page-dir", str(tmp_path)])
    assert refused.value.code == 2
    assert capsys.readouterr().err.endswith("error: " + sentence + "\n")


@pytest.mark.parametrize("value", ["70000", "-1", "http"])
def test_a_port_that_cannot_be_bound_is_one_sentence(tmp_path, capsys, value):
    with pytest.raises(SystemExit) as refused:
        explore.options(["--page-dir", str(tmp_path), "--api", "https://datalake.example.com", "--port", value])
    assert refused.value.code == 2
    assert capsys.readouterr().err.endswith(
        "error: argument --port: %s is not a port: give 0 to 65535 (0 for a free one)\n" % value)
