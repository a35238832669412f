"""Signed access to a datalake API deployed on AWS.

The ``datalake`` client takes its HTTP session class from ``DATALAKE_SESSION_CLASS`` (``module.Class``,
built with no arguments). This package gives it two:

- ``datalake_aws.SigV4Session`` signs API requests with AWS Signature Version 4 (service
  ``execute-api``), credentials from the standard AWS chain, for ``ApiAuthMode=AWS_IAM``;
- ``datalake_aws.BearerTokenSession`` sends ``Authorization: Bearer <token>`` for ``ApiAuthMode=JWT``.

Both authorise only requests to the API's own origin (``DATALAKE_HTTP_URL``): ``next`` links are
authorised again, and the presigned S3 URL that ``/data`` redirects to gets no API credentials.
"""

from datalake_aws.sessions import ApiSession, BearerTokenSession, SigV4Session

__all__ = ["ApiSession", "BearerTokenSession", "SigV4Session"]
