"""The sessions: a requests.Session that authorises requests to one API origin, and nothing else."""

import logging
import os
import re
import shlex
import subprocess
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

import requests

LOG = logging.getLogger("datalake_aws")

_DEFAULT_PORTS = {"http": 80, "https": 443}
#: The local runner (scripts/local.sh) signs for us-east-1 on this machine's loopback addresses.
_LOCAL_REGIONS = {"127.0.0.1": "us-east-1", "localhost": "us-east-1", "::1": "us-east-1"}
_EXECUTE_API_HOST = re.compile(r"^[a-z0-9]+\.execute-api\.([a-z0-9-]+)\.amazonaws\.com(\.cn)?$")


def origin(url):
    """(scheme, host, port) of a URL, lower-case, with the scheme's default port filled in."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    return scheme, (parts.hostname or "").lower(), parts.port or _DEFAULT_PORTS.get(scheme)


class ApiSession(requests.Session):
    """A session that authorises the requests it sends to the API's origin, and strips its
    authorisation from every other request.

    requests follows redirects and ``next`` links through ``send``, copying the previous request's
    headers; it drops ``Authorization`` when the host changes but keeps the other headers (a SigV4
    signature's ``X-Amz-Date`` and ``X-Amz-Security-Token``). So ``send`` first removes every header
    this session may have added, then authorises the request again only if it goes to the API.

    :param api_url: the API's base URL; default ``DATALAKE_HTTP_URL``, as the datalake client reads it
    """

    #: Headers this session adds; removed from every request before it is (re)authorised.
    AUTH_HEADERS = ("Authorization",)

    def __init__(self, api_url=None):
        super().__init__()
        api_url = api_url or os.environ.get("DATALAKE_HTTP_URL")
        if not api_url:
            raise ValueError("Set DATALAKE_HTTP_URL to the API's URL (or pass api_url), so that "
                             "the session knows which requests to authorise.")
        self.api_url = api_url.rstrip("/")
        self.api_origin = origin(self.api_url)

    def is_api(self, url):
        return origin(url) == self.api_origin

    def send(self, request, **kwargs):
        response = self.send_authorized(request, **kwargs)
        self.warn_if_refused(request, response)
        return response

    def send_authorized(self, request, **kwargs):
        for name in self.AUTH_HEADERS:
            request.headers.pop(name, None)
        if self.is_api(request.url):
            self.authorize(request)
        return super().send(request, **kwargs)

    def warn_if_refused(self, request, response):
        """The datalake client prints only the API's body ("Forbidden"); this says what to check."""
        if response.status_code in (401, 403) and self.is_api(request.url):
            LOG.warning("datalake_aws: the API at %s refused the request (%d): %s", self.api_url,
                        response.status_code, self.refusal_hint())

    def authorize(self, request):
        """Adds this session's credentials to a prepared request for the API."""
        raise NotImplementedError

    def refusal_hint(self):
        return "check the credentials this session sends."


class SigV4Session(ApiSession):
    """Signs API requests with AWS Signature Version 4 for ``execute-api`` (``ApiAuthMode=AWS_IAM``).

    Credentials come from botocore's standard chain (environment, ``AWS_PROFILE`` and the shared
    files, SSO, container and instance roles) and are refreshed when they expire. The region is the
    one in an ``execute-api`` URL, else ``AWS_REGION``, else botocore's (``AWS_DEFAULT_REGION`` or
    the profile's), else, for an API on this machine (``scripts/local.sh --auth iam``), the local
    runner's ``us-east-1``: no region variable is then needed, and none must be set for the datalake
    client's ``push`` and ``cat s3://`` to use ``AWS_ENDPOINT_URL_S3`` (with one, it builds an AWS S3
    URL itself). Query strings are re-encoded the canonical SigV4 way (RFC 3986, ``%20`` not
    ``+``) before signing, so that the API reads exactly what was signed.
    """

    AUTH_HEADERS = ("Authorization", "X-Amz-Date", "X-Amz-Security-Token", "X-Amz-Content-SHA256")
    SERVICE = "execute-api"

    def __init__(self, api_url=None, region=None, botocore_session=None):
        super().__init__(api_url)
        import botocore.session

        self._botocore = botocore_session or botocore.session.Session()
        self.region = region or region_of(self.api_url) or os.environ.get("AWS_REGION") \
            or self._botocore.get_config_variable("region") or _LOCAL_REGIONS.get(origin(self.api_url)[1])
        if not self.region:
            raise ValueError("Cannot tell the region of %s: set AWS_REGION (or AWS_DEFAULT_REGION, or a "
                             "profile's region) to the API's region." % self.api_url)
        self._credentials = self._botocore.get_credentials()
        if self._credentials is None:
            raise ValueError("No AWS credentials found to sign requests to %s: set AWS_PROFILE (and run "
                             "aws sso login for SSO), or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY."
                             % self.api_url)

    def authorize(self, request):
        from botocore.auth import SigV4Auth
        from botocore.awsrequest import AWSRequest

        request.url = canonical_query_url(request.url)
        body = request.body or b""
        signed = AWSRequest(method=request.method, url=request.url, data=body)
        SigV4Auth(self._credentials.get_frozen_credentials(), self.SERVICE, self.region).add_auth(signed)
        for name in ("Authorization", "X-Amz-Date", "X-Amz-Security-Token"):
            if name in signed.headers:
                request.headers[name] = signed.headers[name]

    def refusal_hint(self):
        frozen = self._credentials.get_frozen_credentials()
        return ("the SigV4 signature was refused: the access key ending %s (from %s) needs "
                "execute-api:Invoke on this API, the region must be the API's (signed for %s), and the "
                "clock must be right within 15 minutes." % (frozen.access_key[-4:], self._credentials.method,
                                                           self.region))


class BearerTokenSession(ApiSession):
    """Sends ``Authorization: Bearer <token>`` to the API (``ApiAuthMode=JWT``).

    The token is ``DATALAKE_API_TOKEN``, or the output of ``DATALAKE_API_TOKEN_COMMAND`` (a command
    and its arguments, run without a shell, e.g. ``my-sso token --audience datalake``), run once and
    again when the API answers 401 (an expired token), for one retry.
    """

    def __init__(self, api_url=None, token=None, token_command=None):
        super().__init__(api_url)
        self._token = token or os.environ.get("DATALAKE_API_TOKEN") or None
        self._command = token_command or os.environ.get("DATALAKE_API_TOKEN_COMMAND") or None
        if not self._token and not self._command:
            raise ValueError("Set DATALAKE_API_TOKEN to the API's bearer token, or DATALAKE_API_TOKEN_COMMAND "
                             "to a command that prints one.")

    def token(self, refresh=False):
        if self._command and (refresh or not self._token):
            try:
                result = subprocess.run(shlex.split(self._command), capture_output=True, text=True, timeout=60)
            except OSError as e:
                raise ValueError("DATALAKE_API_TOKEN_COMMAND could not run: %s" % e) from None
            token = result.stdout.strip()
            if result.returncode != 0 or not token:
                raise ValueError("DATALAKE_API_TOKEN_COMMAND failed (exit %d) or printed no token: %s"
                                 % (result.returncode, result.stderr.strip()[:200]))
            self._token = token
        return self._token

    def authorize(self, request):
        request.headers["Authorization"] = "Bearer " + self.token()

    def send(self, request, **kwargs):
        response = self.send_authorized(request, **kwargs)
        if response.status_code == 401 and self._command and self.is_api(request.url):
            response.close()
            self.token(refresh=True)
            response = self.send_authorized(request, **kwargs)
        self.warn_if_refused(request, response)
        return response

    def refusal_hint(self):
        return "the bearer token was refused: it may have expired, or be for another issuer or audience."


def region_of(url):
    """The region of an ``https://<id>.execute-api.<region>.amazonaws.com`` URL, else None."""
    match = _EXECUTE_API_HOST.match((urlsplit(url).hostname or "").lower())
    return match.group(1) if match else None


def canonical_query_url(url):
    """The URL with its query re-encoded as SigV4 canonicalises it (RFC 3986, sorted as sent)."""
    parts = urlsplit(url)
    if not parts.query:
        return url
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    query = urlencode(pairs, quote_via=quote, safe="-_.~")
    return urlunsplit((parts.scheme, parts.netloc, parts.path, query, parts.fragment))
