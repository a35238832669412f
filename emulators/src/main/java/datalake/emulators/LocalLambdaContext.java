package datalake.emulators;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

/**
 * The Lambda {@link Context} of one local invocation (this package's HTTP server, the local runner's
 * SQS poller): a fresh request id, a deadline like the function's timeout, a logger on standard output.
 */
public final class LocalLambdaContext implements Context {
    private final String functionName;
    private final String requestId = UUID.randomUUID().toString();
    private final long deadlineMillis;
    private final int memoryMb;

    public LocalLambdaContext(String functionName, Duration timeout, int memoryMb) {
        this.functionName = functionName;
        this.deadlineMillis = System.currentTimeMillis() + timeout.toMillis();
        this.memoryMb = memoryMb;
    }

    @Override
    public String getAwsRequestId() {
        return requestId;
    }

    @Override
    public String getLogGroupName() {
        return "/aws/lambda/" + functionName;
    }

    @Override
    public String getLogStreamName() {
        return "local";
    }

    @Override
    public String getFunctionName() {
        return functionName;
    }

    @Override
    public String getFunctionVersion() {
        return "$LATEST";
    }

    @Override
    public String getInvokedFunctionArn() {
        return "arn:aws:lambda:us-east-1:000000000000:function:" + functionName;
    }

    @Override
    public CognitoIdentity getIdentity() {
        return null;
    }

    @Override
    public ClientContext getClientContext() {
        return null;
    }

    @Override
    public int getRemainingTimeInMillis() {
        return (int) Math.max(0, deadlineMillis - System.currentTimeMillis());
    }

    @Override
    public int getMemoryLimitInMB() {
        return memoryMb;
    }

    @Override
    public LambdaLogger getLogger() {
        return StdoutLogger.INSTANCE;
    }

    private enum StdoutLogger implements LambdaLogger {
        INSTANCE;

        @Override
        public void log(String message) {
            System.out.print(message);
        }

        @Override
        public void log(byte[] message) {
            System.out.print(new String(message, StandardCharsets.UTF_8));
        }
    }
}
