package datalake.bench.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The partition model's counts written out as {@code scripts/shards.sh suggest --from-counts} reads them. */
class PartitionModelCountsTest {
    @Test
    void everyTableKeysWritesASecondAndNoGsiKeys(@TempDir Path dir) throws Exception {
        // given writes in the model's first and third seconds, each to a table key and a GSI key
        AtomicLong clock = new AtomicLong();
        PartitionModel model = new PartitionModel(PartitionLimits.unlimited(), clock::get);
        PartitionKey day = PartitionKey.ofTable("records", "20454:what01");
        PartitionKey other = PartitionKey.ofTable("records", "20454:what02");
        PartitionKey job = PartitionKey.ofIndex("records", "work-id-index", "job-1:what01");
        model.write(List.of(new PartitionModel.WriteCharge(day, 1), new PartitionModel.WriteCharge(job, 1)));
        model.write(List.of(new PartitionModel.WriteCharge(day, 1), new PartitionModel.WriteCharge(job, 1)));
        clock.set(2_500_000_000L);
        model.write(List.of(new PartitionModel.WriteCharge(other, 1)));
        model.write(List.of(new PartitionModel.WriteCharge(day, 1)));

        // when the counts are written out
        Path file = dir.resolve("counts.csv");
        model.writeCounts(file);

        // then each table key's seconds with writes, in key order; the GSI's key is not there
        assertEquals("key,second,writes\n20454:what01,0,2\n20454:what01,2,1\n20454:what02,2,1\n", Files.readString(file));
    }
}
