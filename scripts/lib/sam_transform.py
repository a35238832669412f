"""The SAM transform, run locally: template.yaml (AWS::Serverless-2016-10-31) to plain CloudFormation JSON
with aws-sam-translator, the library `sam` and CloudFormation itself run.

    python scripts/lib/sam_transform.py TEMPLATE [Name=Value ...]   (JSON on standard output)

Parameters not given take the template's defaults. The pseudo parameters AWS::AccountId, AWS::Region and
AWS::StackName are given the same way (emulators' SamTransform passes the stack's own); the partition,
URL suffix and stack id follow from them. The
transform needs no AWS account: the policies in template.yaml are statements, never managed-policy
names that the translator would look up in IAM (a name it cannot resolve fails the transform here).
"""
import json
import sys

import boto3
from samtranslator.model.exceptions import InvalidDocumentException
from samtranslator.parser.parser import Parser
from samtranslator.translator.translator import Translator
from samtranslator.yaml_helper import yaml_parse

REQUIRED = ("AWS::AccountId", "AWS::Region", "AWS::StackName")


def pseudo_parameters(given):
    """The pseudo parameters CloudFormation passes the transform, from the account, region and stack name."""
    missing = [name for name in REQUIRED if name not in given]
    if missing:
        raise SystemExit("error: give " + ", ".join(name + "=..." for name in missing))
    region = given["AWS::Region"]
    partition = "aws-cn" if region.startswith("cn-") else "aws-us-gov" if region.startswith("us-gov-") else "aws"
    return {
        "AWS::Partition": partition,
        "AWS::URLSuffix": "amazonaws.com.cn" if partition == "aws-cn" else "amazonaws.com",
        "AWS::StackId": "arn:" + partition + ":cloudformation:" + region + ":" + given["AWS::AccountId"]
                        + ":stack/" + given["AWS::StackName"] + "/local",
        "AWS::NotificationARNs": [],
    }


def no_managed_policy_names():
    """No IAM to ask: a managed policy named by its name (not its ARN) cannot be resolved offline."""
    return {}


def as_packaged(template):
    """What `sam package` sends CloudFormation: each local CodeUri replaced by the S3 object it uploads."""
    for logical_id, resource in template.get("Resources", {}).items():
        properties = resource.get("Properties") or {}
        code = properties.get("CodeUri")
        if resource.get("Type") == "AWS::Serverless::Function" and isinstance(code, str) \
                and not code.startswith("s3://"):
            properties["CodeUri"] = "s3://sam-package-artifacts/" + logical_id + ".zip"
    return template


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        template = as_packaged(yaml_parse(f.read()))
    parameters = {}
    for assignment in argv[2:]:
        name, _, value = assignment.partition("=")
        parameters[name] = value
    parameters = {**pseudo_parameters(parameters), **parameters}
    try:
        # The session only tells the translator the region (no call is made with it).
        session = boto3.session.Session(region_name=parameters["AWS::Region"])
        transformed = Translator(None, Parser(), boto_session=session).translate(
            template, parameter_values=parameters, get_managed_policy_map=no_managed_policy_names)
    except InvalidDocumentException as e:
        print("error: the SAM transform rejected " + argv[1] + ": "
              + "; ".join(str(cause) for cause in e.causes), file=sys.stderr)
        return 1
    json.dump(transformed, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
