package datalake.tools;

/**
 * What a tool works on: {@code s3://bucket[/prefix]}, the objects of a bucket whose keys start with the prefix.
 *
 * @param bucket the bucket name
 * @param prefix the key prefix, or "" for the whole bucket
 */
record Target(String bucket, String prefix) {
    /** Parses {@code s3://bucket[/prefix]}; {@link IllegalArgumentException} with one sentence otherwise. */
    static Target parse(String text) {
        if (text == null || !text.startsWith("s3://") || text.length() == "s3://".length()) {
            throw new IllegalArgumentException("the target must be s3://bucket or s3://bucket/prefix, not "
                    + (text == null ? "nothing" : "'" + text + "'") + ".");
        }
        String rest = text.substring("s3://".length());
        int slash = rest.indexOf('/');
        String bucket = slash < 0 ? rest : rest.substring(0, slash);
        if (!bucket.matches("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")) {
            throw new IllegalArgumentException("'" + bucket + "' is not an S3 bucket name.");
        }
        return new Target(bucket, slash < 0 ? "" : rest.substring(slash + 1));
    }

    /** The {@code s3://} URL prefix of the records of these objects. */
    String urlPrefix() {
        return "s3://" + bucket + "/" + prefix;
    }

    @Override
    public String toString() {
        return urlPrefix();
    }
}
