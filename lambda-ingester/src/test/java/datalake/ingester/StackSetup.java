package datalake.ingester;

import datalake.emulators.DatalakeStack;

/**
 * How a test's stack differs from template.yaml's, on top of it: how S3's notifications reach the ingest
 * queue, the maxReceiveCount parameter, and whether the bucket keeps versions.
 *
 * @param route           the notifications' route
 * @param maxReceiveCount the IngestMaxReceiveCount parameter, or null for the template's default
 * @param versioned       whether the bucket keeps versions as the template's does; off by default, since
 *                        moto sends no notification for a delete marker (tests of versions send what S3 would)
 */
record StackSetup(Route route, Integer maxReceiveCount, boolean versioned) {

    /** Where S3 sends its notifications. */
    enum Route {
        /** S3 → upload topic → ingest queue, raw, as the template subscribes. */
        TOPIC_RAW,
        /** S3 → upload topic → ingest queue in SNS envelopes (a test-side change). */
        TOPIC_ENVELOPED,
        /** S3 → ingest queue, the template's UploadNotifications=Queue. */
        QUEUE
    }

    /** The template's route and parameters, the bucket without versions. */
    static StackSetup defaults() {
        return new StackSetup(Route.TOPIC_RAW, null, false);
    }

    StackSetup withRoute(Route other) {
        return new StackSetup(other, maxReceiveCount, versioned);
    }

    StackSetup withMaxReceiveCount(int count) {
        return new StackSetup(route, count, versioned);
    }

    StackSetup withVersions() {
        return new StackSetup(route, maxReceiveCount, true);
    }

    /** The stack, built on {@code builder}, with the test-side changes applied. */
    DatalakeStack build(DatalakeStack.Builder builder) {
        if (maxReceiveCount != null) {
            builder.parameter("IngestMaxReceiveCount", Integer.toString(maxReceiveCount));
        }
        if (!versioned) {
            builder.unversionedBucket();
        }
        if (route == Route.QUEUE) {
            builder.queueNotifications();
        }
        DatalakeStack stack = builder.build();
        switch (route) {
            case TOPIC_ENVELOPED -> stack.envelopeUploads();
            case TOPIC_RAW, QUEUE -> { }
        }
        return stack;
    }
}
