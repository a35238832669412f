package datalake.ingester;

/** A message that can never be ingested, on its way to the DLQ with the reason. */
record DeadLetter(String messageId, String body, Failure failure) {
}
