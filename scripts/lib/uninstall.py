"""Deletes a datalake stack, and on request the data the stack keeps (scripts/uninstall.sh).

The stack keeps the storage bucket (the files) and the two tables (the index) when it is deleted; its
operations bucket is versioned, and CloudFormation cannot delete a bucket that still holds versions.
So: the operations bucket is emptied, then `sam delete` runs; --delete-index deletes the tables,
--delete-files empties and deletes the storage bucket. Both are needed before a re-install under the
same NamePrefix (or the storage bucket is adopted, README "Adopting an existing bucket"). A bucket the
stack adopted (its ExistingBucketName), or one another stack of the region adopted (README's rename), is
not the stack's to delete: --delete-files then refuses, before anything is deleted.
"""
import argparse
import os
import subprocess
import sys


NEEDED = ("OperationsBucketName", "StorageBucketName", "RecordsTableName", "LatestTableName")


def outputs(cloudformation, stack):
    """The stack's outputs, by key, and the bucket it adopted ("" when it made its own); a missing stack or
    output ends the run with a sentence saying which."""
    try:
        described = cloudformation.describe_stacks(StackName=stack)["Stacks"][0]
    except cloudformation.exceptions.ClientError as e:
        raise SystemExit(f"cannot read stack {stack}: {e.response['Error']['Message']}")
    found = {o["OutputKey"]: o["OutputValue"] for o in described.get("Outputs", [])}
    missing = [key for key in NEEDED if key not in found]
    if missing:
        raise SystemExit(f"stack {stack} has no output {', '.join(missing)}: is it a datalake stack?")
    parameters = {p["ParameterKey"]: p.get("ParameterValue", "") for p in described.get("Parameters", [])}
    return found, parameters.get("ExistingBucketName", "")


def adopters(cloudformation, stack, bucket):
    """The other stacks of the region that adopted the bucket (their ExistingBucketName): an adopter's
    EventBridge rule is in the bucket's region, so no other region needs looking at."""
    found = []
    for page in cloudformation.get_paginator("describe_stacks").paginate():
        for other in page["Stacks"]:
            parameters = {p["ParameterKey"]: p.get("ParameterValue", "") for p in other.get("Parameters", [])}
            if other["StackName"] != stack and parameters.get("ExistingBucketName") == bucket:
                found.append(other["StackName"])
    return found


def empty_bucket(s3, bucket):
    """Deletes every object version and delete marker of a bucket; returns how many.

    Always the first page again, not the next one: a marker into what was just deleted may list nothing."""
    deleted = 0
    while True:
        page = s3.list_object_versions(Bucket=bucket, MaxKeys=1000)
        doomed = [{"Key": v["Key"], "VersionId": v["VersionId"]}
                  for v in page.get("Versions", []) + page.get("DeleteMarkers", [])]
        if not doomed:
            return deleted
        answer = s3.delete_objects(Bucket=bucket, Delete={"Objects": doomed, "Quiet": True})
        if answer.get("Errors"):
            first = answer["Errors"][0]
            raise SystemExit(f"could not delete {first['Key']} from {bucket}: {first['Message']}")
        deleted += len(doomed)


def delete_tables(dynamodb, tables):
    """Deletes the tables that exist, waiting until they are gone; returns those deleted."""
    gone = []
    for table in tables:
        try:
            dynamodb.delete_table(TableName=table)
        except dynamodb.exceptions.ResourceNotFoundException:
            continue
        dynamodb.get_waiter("table_not_exists").wait(TableName=table)
        gone.append(table)
    return gone


def main(argv=None, session=None, sam_delete=None):
    parser = argparse.ArgumentParser(prog="scripts/uninstall.sh")
    parser.add_argument("stack")
    parser.add_argument("--delete-index", action="store_true", help="also delete the records and latest tables")
    parser.add_argument("--delete-files", action="store_true", help="also empty and delete the storage bucket")
    args = parser.parse_args(argv)
    if session is None:
        import boto3
        # boto3 reads AWS_DEFAULT_REGION only; AWS_REGION is what the other tools and deploy.sh's users set
        session = boto3.session.Session(region_name=os.environ.get("AWS_REGION") or None)
    from botocore.exceptions import BotoCoreError
    try:
        return uninstall(args, session, sam_delete or _sam_delete)
    except BotoCoreError as e:  # no region, no credentials, no endpoint: one sentence, not a traceback
        raise SystemExit(f"could not reach AWS for stack {args.stack}: {str(e).rstrip('.')}; set AWS_REGION and credentials, "
                         f"then run again (what was printed above is done)")


def uninstall(args, session, sam_delete):
    s3 = session.client("s3")
    cloudformation = session.client("cloudformation")
    found, adopted = outputs(cloudformation, args.stack)
    if args.delete_files and adopted:
        raise SystemExit(f"stack {args.stack} adopted bucket {adopted}, which it does not own, so --delete-files "
                         f"will not delete it; nothing was deleted (run without --delete-files)")
    others = adopters(cloudformation, args.stack, found["StorageBucketName"]) if args.delete_files else []
    if others:
        raise SystemExit(f"stack {', '.join(others)} adopted bucket {found['StorageBucketName']} and indexes it, "
                         f"so --delete-files will not delete it; nothing was deleted (run without --delete-files)")
    kept = [found["RecordsTableName"], found["LatestTableName"], found["StorageBucketName"]]
    print(f"emptied {found['OperationsBucketName']}: {empty_bucket(s3, found['OperationsBucketName'])} versions")
    sam_delete(args.stack, session.region_name)
    if args.delete_index:
        for table in delete_tables(session.client("dynamodb"), kept[:2]):
            print(f"deleted table {table}")
            kept.remove(table)
    if args.delete_files:
        bucket = found["StorageBucketName"]
        print(f"emptied {bucket}: {empty_bucket(s3, bucket)} versions")
        s3.delete_bucket(Bucket=bucket)
        print(f"deleted bucket {bucket}")
        kept.remove(bucket)
    if kept:
        print("kept: " + ", ".join(kept))
    return 0


def _sam_delete(stack, region):
    command = [sys.executable.rsplit("/", 1)[0] + "/sam", "delete", "--stack-name", stack, "--no-prompts"]
    if subprocess.run(command + (["--region", region] if region else [])).returncode != 0:
        raise SystemExit(f"sam delete did not delete {stack}; nothing else was deleted (see its output above)")


if __name__ == "__main__":
    sys.exit(main())
