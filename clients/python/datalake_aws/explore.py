"""A local signing proxy for the explorer page, like ``kubectl proxy``: ``scripts/explore.sh``.

It listens on 127.0.0.1 only, serves the page's files at ``/``, and forwards the page's GET requests
under ``/v0/`` (or under the API URL's own path, a stage's ``/prod/v0/`` as its ``next`` links read) to
the deployed API with this machine's credentials (SigV4 or a bearer token, through the sessions of this
package), so the deployed API stays closed and never serves the page itself.
Redirects (``/data``'s presigned S3 link) are passed to the browser as they are: the browser fetches
the file from S3 directly, without any API credentials.

Requests whose ``Host`` is not this proxy's own loopback address are refused, so that a web page
cannot reach the API through it by DNS rebinding.
"""

import argparse
import mimetypes
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import requests

from datalake_aws.sessions import BearerTokenSession, SigV4Session

#: The proxy's answer line once it listens; scripts and tests wait for it.
READY = "datalake explore: ready"
#: The datalake client's configuration file when DATALAKE_CONFIG names none (its config_helpers.DEFAULT_CONFIG).
DEFAULT_CONFIG = "/etc/datalake.env"
#: The datalake client's DATALAKE_SESSION_CLASS values that are one of --auth's ways.
_AUTH_OF_SESSION_CLASS = {"datalake_aws.SigV4Session": "iam", "datalake_aws.sessions.SigV4Session": "iam",
                          "datalake_aws.BearerTokenSession": "jwt", "datalake_aws.sessions.BearerTokenSession": "jwt",
                          "requests.Session": "none", "requests.sessions.Session": "none"}
_FORWARDED_RESPONSE_HEADERS = ("content-type", "location", "cache-control")
_PAGE_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
               ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml", ".png": "image/png"}


def session_for(auth, api_url):
    if auth == "iam":
        return SigV4Session(api_url=api_url)
    if auth == "jwt":
        return BearerTokenSession(api_url=api_url)
    return requests.Session()


def load_config():
    """Loads DATALAKE_CONFIG's file (default /etc/datalake.env, when it exists) into the environment, as
    the datalake client does: variables already set win over the file's."""
    path = os.environ.get("DATALAKE_CONFIG", DEFAULT_CONFIG)
    if not os.path.exists(path):
        if path != DEFAULT_CONFIG:
            raise ValueError("DATALAKE_CONFIG names %s, which does not exist." % path)
        return
    try:
        from dotenv import load_dotenv
    except ImportError:
        raise ValueError("reading %s needs python-dotenv, which the datalake client installs (pip install "
                         "datalake), or unset DATALAKE_CONFIG." % path) from None
    load_dotenv(path)


def auth_of_session_class():
    """The --auth that does what DATALAKE_SESSION_CLASS makes the datalake client do (iam when unset)."""
    session_class = os.environ.get("DATALAKE_SESSION_CLASS")
    if not session_class:
        return "iam"
    if session_class not in _AUTH_OF_SESSION_CLASS:
        raise ValueError("DATALAKE_SESSION_CLASS is %s, which the proxy cannot sign with: give --auth iam, jwt "
                         "or none." % session_class)
    return _AUTH_OF_SESSION_CLASS[session_class]


def page_files(page_dir):
    """path -> (content type, bytes) for the files of the page directory; ``/`` is index.html."""
    files = {}
    for name in sorted(os.listdir(page_dir)):
        path = os.path.join(page_dir, name)
        if os.path.isfile(path) and not name.startswith("."):
            content_type = _PAGE_TYPES.get(os.path.splitext(name)[1]) or mimetypes.guess_type(name)[0] \
                or "application/octet-stream"
            with open(path, "rb") as f:
                files["/" + name] = (content_type, f.read())
    if "/index.html" not in files:
        raise ValueError("%s has no index.html: give the explorer page's directory." % page_dir)
    files["/"] = files["/index.html"]
    return files


class ExplorerProxy(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, port, api_url, session, files):
        super().__init__(("127.0.0.1", port), ProxyHandler)
        self.api_url = api_url.rstrip("/")
        # An API under a path (a stage: https://host/prod) writes it into its next links, which the page asks here.
        self.api_prefix = urlsplit(self.api_url).path
        self.session = session
        self.files = files
        self.hosts = {"127.0.0.1:%d" % self.server_port, "localhost:%d" % self.server_port}

    @property
    def url(self):
        return "http://127.0.0.1:%d" % self.server_port


class ProxyHandler(BaseHTTPRequestHandler):
    server_version = "datalake-explore"

    def log_message(self, fmt, *args):
        if os.environ.get("DATALAKE_EXPLORE_QUIET") != "1":
            sys.stderr.write("explore: %s\n" % (fmt % args))

    def do_GET(self):
        host = self.headers.get("Host", "").lower()
        if host not in self.server.hosts:
            return self.reply(403, "text/plain; charset=utf-8", b"This proxy answers only at its own address.\n")
        # Another site's page may make the browser send GETs here (an image, a script): they would go out signed.
        site = self.headers.get("Sec-Fetch-Site")
        origin = self.headers.get("Origin")
        if (site is not None and site not in ("same-origin", "none")) or (origin is not None
                                                                           and origin.lower() != "http://" + host):
            return self.reply(403, "text/plain; charset=utf-8", b"This proxy answers only its own page.\n")
        if not self.path.startswith("/"):
            return self.reply(400, "text/plain; charset=utf-8", b"Bad path.\n")
        target = urlsplit(self.path)
        path = target.path
        if path.startswith(self.server.api_prefix + "/v0/"):
            path = path[len(self.server.api_prefix):]
        if path.startswith("/v0/"):
            # forwarded as a path of the API's own URL, never one that leaves /v0/ once normalised
            if any(part in (".", "..") for part in path.split("/")):
                return self.reply(400, "text/plain; charset=utf-8", b"Bad path.\n")
            return self.forward(path + ("?" + target.query if target.query else ""))
        page = self.server.files.get(path)
        if page is None:
            return self.reply(404, "text/plain; charset=utf-8", b"Not found.\n")
        content_type, body = page
        self.reply(200, content_type, body, {
            "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff",
            "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'"})

    def do_HEAD(self):
        self.reply(405, "text/plain; charset=utf-8", b"")

    do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD

    def forward(self, path):
        try:
            upstream = self.server.session.get(self.server.api_url + path, allow_redirects=False,
                                               timeout=(5, 60), headers={"Accept": "application/json"})
        except requests.RequestException as e:
            body = ('{"code":"ProxyError","message":"The API did not answer: %s."}'
                    % type(e).__name__).encode()
            return self.reply(502, "application/json", body)
        except Exception as e:  # the credentials: a token command that failed, an expired login
            self.log_message("could not sign %s: %s", path, type(e).__name__)
            body = ('{"code":"ProxyCredentials","message":"The proxy could not sign the request (%s); check'
                    ' the credentials it was started with."}' % type(e).__name__).encode()
            return self.reply(502, "application/json", body)
        headers = {name: upstream.headers[name] for name in _FORWARDED_RESPONSE_HEADERS if name in upstream.headers}
        content_type = headers.pop("content-type", "application/json")
        self.reply(upstream.status_code, content_type, upstream.content, headers)

    def reply(self, status, content_type, body, headers=None):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


def port(text):
    """A TCP port for argparse: 0 to 65535 (bind would fail later with a traceback)."""
    try:
        number = int(text)
    except ValueError:
        number = -1
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError("%s is not a port: give 0 to 65535 (0 for a free one)" % text)
    return number


def options(argv=None):
    """The command line's options; exits with one sentence when they cannot work."""
    parser = argparse.ArgumentParser(prog="datalake-explore", description="Serves the explorer page on "
                                     "127.0.0.1 and signs its calls to a deployed datalake API. Reads the "
                                     "datalake client's DATALAKE_CONFIG file (default %s) first." % DEFAULT_CONFIG)
    parser.add_argument("--api", help="the API's URL (default: DATALAKE_HTTP_URL)")
    parser.add_argument("--auth", choices=("iam", "jwt", "none"),
                        help="iam: SigV4 with the AWS credential chain; jwt: a bearer token from DATALAKE_API_TOKEN "
                             "or DATALAKE_API_TOKEN_COMMAND; none: plain requests (default: as DATALAKE_SESSION_CLASS "
                             "says, else iam)")
    parser.add_argument("--port", type=port, default=8001, help="local port (default 8001; 0 for a free one)")
    parser.add_argument("--page-dir", required=True, help="the explorer page's directory")
    args = parser.parse_args(argv)
    try:
        load_config()
        args.api = args.api or os.environ.get("DATALAKE_HTTP_URL")
        args.auth = args.auth or auth_of_session_class()
    except ValueError as e:
        parser.error(str(e))
    if not args.api:
        parser.error("give --api URL or set DATALAKE_HTTP_URL")
    api = urlsplit(args.api)
    if api.scheme not in ("http", "https") or not api.netloc:
        # requests would refuse every call, so the proxy would start "ready" and answer 502 forever
        parser.error("the API's URL must start with https:// or http:// (as in "
                     "https://abc123.execute-api.us-east-1.amazonaws.com), not %s" % args.api)
    return args


def main(argv=None):
    args = options(argv)
    try:
        files = page_files(args.page_dir)
        session = session_for(args.auth, args.api)
        proxy = ExplorerProxy(args.port, args.api, session, files)
    except (ValueError, OSError) as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    print("explorer: %s/ (API %s, %s)" % (proxy.url, args.api, {
        "iam": "signed with SigV4", "jwt": "with a bearer token", "none": "unsigned"}[args.auth]))
    print("%s url=%s" % (READY, proxy.url), flush=True)
    try:
        proxy.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        proxy.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
