"""scripts/lib/uninstall.py on moto: the operations bucket is empty of every version before sam delete runs
(CloudFormation cannot delete a versioned bucket that holds any), the tables and the storage bucket are kept
unless asked, and deleted with every version when asked."""
import importlib.util
import json
import pathlib

import boto3
import pytest
from moto import mock_aws

spec = importlib.util.spec_from_file_location(
    "uninstall", pathlib.Path(__file__).resolve().parents[1] / "lib" / "uninstall.py")
uninstall = importlib.util.module_from_spec(spec)
spec.loader.exec_module(uninstall)

REGION = "eu-west-1"
TABLE_KEYS = {"AttributeDefinitions": [{"AttributeName": "k", "AttributeType": "S"}],
              "KeySchema": [{"AttributeName": "k", "KeyType": "HASH"}], "BillingMode": "PAY_PER_REQUEST"}
TEMPLATE = {
    "Resources": {
        "StorageBucket": {"Type": "AWS::S3::Bucket", "Properties": {"BucketName": "dl-storage"}},
        "OperationsBucket": {"Type": "AWS::S3::Bucket", "Properties": {"BucketName": "dl-operations"}},
        "RecordsTable": {"Type": "AWS::DynamoDB::Table", "Properties": dict(TABLE_KEYS, TableName="dl-records")},
        "LatestTable": {"Type": "AWS::DynamoDB::Table", "Properties": dict(TABLE_KEYS, TableName="dl-latest")},
    },
    "Outputs": {name + "Name": {"Value": {"Ref": name}}
                for name in ("StorageBucket", "OperationsBucket", "RecordsTable", "LatestTable")},
}


@pytest.fixture
def stack():
    with mock_aws():
        session = boto3.session.Session(region_name=REGION)
        session.client("cloudformation").create_stack(StackName="dl", TemplateBody=json.dumps(TEMPLATE))
        s3 = session.client("s3")
        for bucket in ("dl-storage", "dl-operations"):
            s3.put_bucket_versioning(Bucket=bucket, VersioningConfiguration={"Status": "Enabled"})
            for key in ("a", "b/c"):
                s3.put_object(Bucket=bucket, Key=key, Body=b"1")
                s3.put_object(Bucket=bucket, Key=key, Body=b"2")
            s3.delete_object(Bucket=bucket, Key="a")  # a delete marker
        yield session


def versions(s3, bucket):
    listed = s3.list_object_versions(Bucket=bucket)
    return len(listed.get("Versions", [])) + len(listed.get("DeleteMarkers", []))


def test_the_operations_bucket_is_empty_when_sam_delete_runs_and_the_data_is_kept(stack, capsys):
    s3 = stack.client("s3")
    seen = []

    def sam_delete(name, region):
        # what CloudFormation then needs to delete the operations bucket
        seen.append((name, region, versions(s3, "dl-operations")))

    assert uninstall.main(["dl"], session=stack, sam_delete=sam_delete) == 0

    assert seen == [("dl", REGION, 0)]
    assert versions(s3, "dl-storage") == 5
    assert sorted(stack.client("dynamodb").list_tables()["TableNames"]) == ["dl-latest", "dl-records"]
    assert "kept: dl-records, dl-latest, dl-storage" in capsys.readouterr().out


def test_asked_to_it_deletes_the_tables_and_every_version_of_the_files(stack):
    assert uninstall.main(["dl", "--delete-index", "--delete-files"], session=stack,
                          sam_delete=lambda name, region: None) == 0

    buckets = [b["Name"] for b in stack.client("s3").list_buckets()["Buckets"]]
    assert "dl-storage" not in buckets
    assert stack.client("dynamodb").list_tables()["TableNames"] == []


def test_empty_bucket_removes_versions_and_delete_markers_past_one_page(stack):
    s3 = stack.client("s3")
    for i in range(1001):
        s3.put_object(Bucket="dl-storage", Key=f"many/{i}", Body=b"")

    assert uninstall.empty_bucket(s3, "dl-storage") == 1006
    s3.delete_bucket(Bucket="dl-storage")  # refused while any version or delete marker is left


def test_a_stack_that_is_not_there_or_not_a_datalake_is_named_and_nothing_is_deleted(stack):
    deleted = []
    with pytest.raises(SystemExit, match="cannot read stack nope"):
        uninstall.main(["nope"], session=stack, sam_delete=lambda name, region: deleted.append(name))
    stack.client("cloudformation").create_stack(StackName="other", TemplateBody=json.dumps(
        {"Resources": {"Topic": {"Type": "AWS::SNS::Topic"}}}))
    with pytest.raises(SystemExit, match="stack other has no output OperationsBucketName"):
        uninstall.main(["other"], session=stack, sam_delete=lambda name, region: deleted.append(name))
    assert deleted == []
    assert versions(stack.client("s3"), "dl-operations") == 5


def test_a_bucket_the_stack_adopted_is_never_deleted_and_nothing_else_is_either(stack):
    # a stack that adopted the team's bucket names it as its storage bucket (template.yaml's outputs)
    s3 = stack.client("s3")
    s3.create_bucket(Bucket="team-data", CreateBucketConfiguration={"LocationConstraint": REGION})
    s3.put_object(Bucket="team-data", Key="theirs", Body=b"1")
    adopting = json.loads(json.dumps(TEMPLATE))
    del adopting["Resources"]["StorageBucket"]
    adopting["Parameters"] = {"ExistingBucketName": {"Type": "String", "Default": ""}}
    adopting["Outputs"]["StorageBucketName"] = {"Value": {"Ref": "ExistingBucketName"}}
    for name in ("OperationsBucket", "RecordsTable", "LatestTable"):
        adopting["Resources"][name]["Properties"] = {
            k: (v.replace("dl-", "adopting-") if isinstance(v, str) else v)
            for k, v in adopting["Resources"][name]["Properties"].items()}
    stack.client("cloudformation").create_stack(StackName="adopting", TemplateBody=json.dumps(adopting), Parameters=[
        {"ParameterKey": "ExistingBucketName", "ParameterValue": "team-data"}])
    deleted = []

    with pytest.raises(SystemExit, match="stack adopting adopted bucket team-data, which it does not own"):
        uninstall.main(["adopting", "--delete-index", "--delete-files"], session=stack,
                       sam_delete=lambda name, region: deleted.append(name))

    assert deleted == []
    assert versions(s3, "team-data") == 1
    assert "adopting-records" in stack.client("dynamodb").list_tables()["TableNames"]
    # without --delete-files it uninstalls, and says the adopted bucket is kept
    assert uninstall.main(["adopting"], session=stack, sam_delete=lambda name, region: deleted.append(name)) == 0
    assert deleted == ["adopting"]
    assert versions(s3, "team-data") == 1


def test_a_bucket_another_stack_adopted_is_never_deleted_and_nothing_else_is_either(stack):
    # README's rename: a second stack adopts the first one's bucket, then the first is deleted
    stack.client("cloudformation").create_stack(
        StackName="renamed", TemplateBody=json.dumps({
            "Parameters": {"ExistingBucketName": {"Type": "String"}},
            "Resources": {"Topic": {"Type": "AWS::SNS::Topic"}}}),
        Parameters=[{"ParameterKey": "ExistingBucketName", "ParameterValue": "dl-storage"}])
    deleted = []

    with pytest.raises(SystemExit, match="stack renamed adopted bucket dl-storage and indexes it"):
        uninstall.main(["dl", "--delete-index", "--delete-files"], session=stack,
                       sam_delete=lambda name, region: deleted.append(name))

    assert deleted == []
    assert versions(stack.client("s3"), "dl-storage") == 5
    assert versions(stack.client("s3"), "dl-operations") == 5
    assert sorted(stack.client("dynamodb").list_tables()["TableNames"]) == ["dl-latest", "dl-records"]


def test_the_region_comes_from_aws_region_as_for_the_other_tools(stack, monkeypatch):
    monkeypatch.delenv("AWS_DEFAULT_REGION", raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent")
    monkeypatch.setenv("AWS_REGION", REGION)
    seen = []

    assert uninstall.main(["dl"], sam_delete=lambda name, region: seen.append(region)) == 0

    assert seen == [REGION]


def test_no_region_is_one_sentence_and_nothing_is_deleted(stack, monkeypatch):
    for name in ("AWS_DEFAULT_REGION", "AWS_REGION"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent")
    deleted = []

    with pytest.raises(SystemExit, match="could not reach AWS for stack dl: You must specify a region; set AWS_REGION"):
        uninstall.main(["dl", "--delete-files"], sam_delete=lambda name, region: deleted.append(name))

    assert deleted == []
    assert versions(stack.client("s3"), "dl-storage") == 5
