package datalake.lambda;

import datalake.lambda.CannedHttpClient.Answer;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A function's SnapStart priming: the answers its SDK calls get, as data, and the work it runs
 * through its real code before the snapshot. {@link SnapshotPriming} runs the work on clients that
 * answer from a {@link CannedHttpClient}, with dummy credentials: nothing leaves the sandbox, and the
 * snapshot holds the classes loaded and the code warmed of parsing, the SDK's marshalling, signing
 * and unmarshalling, and the function's answers.
 *
 * @param answers one answer per operation the work calls
 * @param work    builds the function from the factory through the same code as its handler, and runs
 *                the priming requests on it
 */
public record Priming(List<Answer> answers, Consumer<SdkClientFactory> work) {
    /** The datalake metadata of the one file every priming call describes. */
    public static final String FILE_METADATA = "{\"version\":0,\"start\":1426809920345,\"end\":null,"
            + "\"where\":\"priming\",\"what\":\"priming\",\"id\":\"priming\",\"hash\":\"0123456789abcdef0123456789abcdef\","
            + "\"work_id\":null,\"path\":\"/priming\"}";

    public Priming {
        answers = List.copyOf(answers);
    }

    /** S3's answer to a HEAD of that file: 7 bytes, its LastModified and ETag, its user metadata. */
    public static Answer headOfTheFile() {
        return new Answer("HEAD", Map.of("Content-Length", "7", "Last-Modified", "Thu, 19 Mar 2015 23:45:20 GMT",
                "ETag", "\"d41d8cd98f00b204e9800998ecf8427e\"", "x-amz-meta-datalake", FILE_METADATA), "");
    }
}
