"""scripts/lib/stack_policy.py: the stack sam deploy used (its arguments over samconfig.toml's), and the policy
set on it, on moto."""
import importlib.util
import json
import pathlib

import boto3
import pytest
from moto import mock_aws

ROOT = pathlib.Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("stack_policy", ROOT / "scripts" / "lib" / "stack_policy.py")
stack_policy = importlib.util.module_from_spec(spec)
spec.loader.exec_module(stack_policy)

SAMCONFIG = (ROOT / "samconfig.toml").read_text()


def test_the_stack_is_samconfigs_unless_the_arguments_name_another():
    assert stack_policy.target([], SAMCONFIG) == ("datalake-dev", "us-east-1", None)
    assert stack_policy.target(["--config-env", "prod"], SAMCONFIG) == ("datalake-prod", "us-east-1", None)
    assert stack_policy.target(["--stack-name", "mine", "--region", "eu-west-1", "--no-confirm-changeset"],
                               SAMCONFIG) == ("mine", "eu-west-1", None)
    # what sam deploy --guided saves goes to the deploy section, and wins over the global one
    saved = SAMCONFIG + '\n[staging.global.parameters]\nstack_name = "a"\n[staging.deploy.parameters]\nstack_name = "b"\n'
    assert stack_policy.target(["--config-env", "staging"], saved) == ("b", None, None)
    # and the credentials profile sam deploy used: the arguments', else the configuration's
    profiled = SAMCONFIG + '\n[prod2.deploy.parameters]\nstack_name = "p"\nprofile = "prod"\n'
    assert stack_policy.target(["--config-env", "prod2"], profiled) == ("p", None, "prod")
    assert stack_policy.target(["--config-env", "prod2", "--profile", "other"], profiled) == ("p", None, "other")


def test_the_policy_goes_to_the_account_of_sam_deploys_profile(tmp_path, monkeypatch):
    # the deploy's profile is the one whose account gets the policy, not the default credentials'
    config = tmp_path / "config"
    config.write_text("[profile prod]\nregion = eu-west-1\naws_access_key_id = prodkey\naws_secret_access_key = x\n")
    monkeypatch.setenv("AWS_CONFIG_FILE", str(config))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "none"))
    with mock_aws():
        boto3.session.Session(profile_name="prod").client("cloudformation").create_stack(
            StackName="mine", TemplateBody=json.dumps({"Resources": {"Topic": {"Type": "AWS::SNS::Topic"}}}))

        assert stack_policy.main(["--stack-name", "mine", "--region", "eu-west-1", "--profile", "prod"]) == 0
        # a profile that is not there is one sentence, not a traceback
        with pytest.raises(SystemExit, match="could not set stack-policy.json on mine .*nope"):
            stack_policy.main(["--stack-name", "mine", "--region", "eu-west-1", "--profile", "nope"])


def test_the_repository_policy_is_set_on_the_stack():
    with mock_aws():
        cloudformation = boto3.client("cloudformation", region_name="eu-west-1")
        cloudformation.create_stack(StackName="mine", TemplateBody=json.dumps(
            {"Resources": {"Topic": {"Type": "AWS::SNS::Topic"}}}))

        assert stack_policy.main(["--stack-name", "mine", "--region", "eu-west-1"]) == 0

        set_body = json.loads(cloudformation.get_stack_policy(StackName="mine")["StackPolicyBody"])
        assert set_body == json.loads((ROOT / "stack-policy.json").read_text())
