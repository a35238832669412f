"""Sets stack-policy.json on the stack scripts/deploy.sh deployed: CloudFormation then refuses any update
that would replace the tables or the storage bucket (a changed NamePrefix would), instead of continuing
on new, empty ones. The stack, region and credentials profile are sam deploy's: its arguments, else its
configuration file's (--config-file, samconfig.toml by default)."""
import argparse
import pathlib
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _arguments(argv):
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--config-env", default="default")
    parser.add_argument("--config-file", default="samconfig.toml")
    parser.add_argument("--stack-name")
    parser.add_argument("--region")
    parser.add_argument("--profile")
    return parser.parse_known_args(argv)[0]


def target(argv, samconfig):
    """The stack name, region and profile sam deploy used (None where neither the arguments nor samconfig say)."""
    args = _arguments(argv)
    config = tomllib.loads(samconfig) if samconfig else {}
    environment = config.get(args.config_env, {})
    saved = {**environment.get("global", {}).get("parameters", {}), **environment.get("deploy", {}).get("parameters", {})}
    return (args.stack_name or saved.get("stack_name"), args.region or saved.get("region"),
            args.profile or saved.get("profile"))


def main(argv):
    samconfig = ROOT / _arguments(argv).config_file  # scripts/deploy.sh runs sam from the repository's root
    stack, region, profile = target(argv, samconfig.read_text() if samconfig.exists() else "")
    if not stack:
        raise SystemExit("no stack name in the arguments or samconfig.toml: set stack-policy.json yourself"
                         " (aws cloudformation set-stack-policy)")
    import boto3
    import botocore.exceptions
    try:
        boto3.session.Session(profile_name=profile, region_name=region).client("cloudformation").set_stack_policy(
            StackName=stack, StackPolicyBody=(ROOT / "stack-policy.json").read_text())
    except (botocore.exceptions.BotoCoreError, botocore.exceptions.ClientError) as e:
        raise SystemExit(f"could not set stack-policy.json on {stack} ({e}): set it yourself"
                         " (aws cloudformation set-stack-policy)")
    print(f"stack policy set on {stack}: replacing the tables or the storage bucket is refused")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
