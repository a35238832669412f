"""Sets stack-policy.json on the stack scripts/deploy.sh deployed: CloudFormation then refuses any update
that would replace the tables or the storage bucket (a changed NamePrefix would), instead of continuing
on new, empty ones. The stack and region are sam deploy's: its arguments, else samconfig.toml's."""
import argparse
import pathlib
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[2]


def target(argv, samconfig):
    """The stack name and region sam deploy used (None where neither the arguments nor samconfig say)."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--config-env", default="default")
    parser.add_argument("--stack-name")
    parser.add_argument("--region")
    args, _ = parser.parse_known_args(argv)
    config = tomllib.loads(samconfig) if samconfig else {}
    environment = config.get(args.config_env, {})
    saved = {**environment.get("global", {}).get("parameters", {}), **environment.get("deploy", {}).get("parameters", {})}
    return args.stack_name or saved.get("stack_name"), args.region or saved.get("region")


def main(argv):
    samconfig = ROOT / "samconfig.toml"
    stack, region = target(argv, samconfig.read_text() if samconfig.exists() else "")
    if not stack:
        raise SystemExit("no stack name in the arguments or samconfig.toml: set stack-policy.json yourself"
                         " (aws cloudformation set-stack-policy)")
    import boto3
    boto3.client("cloudformation", region_name=region).set_stack_policy(
        StackName=stack, StackPolicyBody=(ROOT / "stack-policy.json").read_text())
    print(f"stack policy set on {stack}: replacing the tables or the storage bucket is refused")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
