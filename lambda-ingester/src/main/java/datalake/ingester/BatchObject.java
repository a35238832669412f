package datalake.ingester;

/**
 * One distinct object (bucket and key) of a batch and the event that owns it ({@link DistinctObjects}).
 *
 * @param event    the owning event
 * @param position the owning event's place among the batch's events (from 1): orders this object against
 *                 another one whose records share its keys
 * @param source   the index of the queue message (or of the event, for {@link Ingester#follow}) that carries it
 */
record BatchObject(ObjectEvent event, int position, int source) {
    /** The object's name in the batch: {@code bucket/key} as its events name it. */
    String key() {
        return key(event);
    }

    static String key(ObjectEvent event) {
        return event.bucket() + '/' + event.key();
    }
}
