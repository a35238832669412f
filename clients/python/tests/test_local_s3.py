"""The real datalake client's push and cat against a local S3 (moto), configured as the README says for
scripts/local.sh: AWS_ENDPOINT_URL_S3, the local credentials, and no region variable.

The pinned client (datalake 2.5.11) builds its S3 endpoint itself whenever AWS_REGION or
AWS_DEFAULT_REGION is set (https://s3-<region>.amazonaws.com), and only otherwise lets boto3 read
AWS_ENDPOINT_URL_S3; it runs none of this package's code before a push. So the local configuration
sets no region, and SigV4Session signs for the local runner's region by itself (test_sessions.py).
"""

import os
import subprocess
import sys

import boto3
import pytest
from moto.server import ThreadedMotoServer

BUCKET = "datalake-123456789012-us-east-1"


@pytest.fixture
def local_s3(tmp_path):
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = "http://%s:%d" % (host, port)
    env = {name: value for name, value in os.environ.items() if not name.startswith(("AWS_", "DATALAKE_"))}
    env.update({"AWS_ENDPOINT_URL_S3": endpoint, "AWS_ACCESS_KEY_ID": "datalakelocal",
                "AWS_SECRET_ACCESS_KEY": "datalakelocal", "AWS_CONFIG_FILE": str(tmp_path / "no-config"),
                "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "no-credentials"), "AWS_EC2_METADATA_DISABLED": "true",
                "DATALAKE_STORAGE_URL": "s3://" + BUCKET, "DATALAKE_HTTP_URL": "http://127.0.0.1:8080",
                "HOME": str(tmp_path)})
    s3 = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="datalakelocal",
                      aws_secret_access_key="datalakelocal")
    s3.create_bucket(Bucket=BUCKET)
    yield s3, env
    server.stop()


def datalake(env, *arguments):
    command = [os.path.join(os.path.dirname(sys.executable), "datalake"), *arguments]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)


def test_push_and_cat_reach_the_local_bucket(local_s3, tmp_path):
    s3, env = local_s3
    file = tmp_path / "hello.log"
    file.write_text("hello from the datalake client\n")

    pushed = datalake(env, "push", "--what", "syslog", "--where", "laptop", "--start", "2026-01-02T03:04:05Z", str(file))

    assert pushed.returncode == 0, pushed.stderr
    url = pushed.stdout.strip().rsplit(" ", 1)[-1]
    assert url.startswith("s3://%s/" % BUCKET) and url.endswith("/data"), pushed.stdout
    stored = s3.head_object(Bucket=BUCKET, Key=url[len("s3://%s/" % BUCKET):])
    assert '"what": "syslog"' in stored["Metadata"]["datalake"]

    cat = datalake(env, "cat", url)

    assert cat.returncode == 0, cat.stderr
    assert cat.stdout == "hello from the datalake client\n\n"
