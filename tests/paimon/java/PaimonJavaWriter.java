// Paimon Java (0.9, from the jar pypaimon 0.2.0 ships) as a real writer and reader of tables whose manifests are
// Avro, ORC or Parquet: tests/paimon/paimon_java_env.py compiles and runs this; lakestruct never links it.
//
//   java -cp CLASSPATH PaimonJavaWriter WAREHOUSE FORMAT...
//
// For each FORMAT it writes WAREHOUSE/j.db/t_FORMAT (manifest.format = FORMAT): a primary-key table with deletion
// vectors, 2 buckets, 3 partitions, three commits that overwrite keys and one that deletes some, then prints one JSON
// object: per format, Paimon's own scan plan (file name, bucket, rows, level) and each file's deleted positions as
// Paimon's DeletionVector reads them. The word "index" instead of a format writes WAREHOUSE/j.db/t_index: an append
// table with bloom-filter and bitmap file indexes (Paimon 0.9 has no BSI), one large commit whose indexes go to
// `.index` files and one small commit whose indexes are embedded in the manifest entry.

import java.util.List;
import java.util.Optional;

import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.deletionvectors.DeletionVector;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.fs.Path;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.DeletionFile;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;

public class PaimonJavaWriter {
    private static BinaryString s(String v) {
        return BinaryString.fromString(v);
    }

    public static void main(String[] args) throws Exception {
        Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(new Path(args[0])));
        catalog.createDatabase("j", true);
        IOManager io = IOManager.create(System.getProperty("java.io.tmpdir"));
        StringBuilder out = new StringBuilder("{");
        for (int a = 1; a < args.length; a++) {
            String fmt = args[a];
            if (fmt.equals("index")) {
                FileStoreTable table = indexed(catalog, io);
                out.append(a > 1 ? "," : "").append("\"index\":");
                plan(table, out);
                continue;
            }
            Identifier id = Identifier.create("j", "t_" + fmt);
            Schema schema = Schema.newBuilder()
                .column("id", DataTypes.BIGINT().notNull())
                .column("v", DataTypes.STRING())
                .column("p", DataTypes.STRING().notNull())
                .partitionKeys("p").primaryKey("id", "p")
                .option("bucket", "2").option("manifest.format", fmt)
                .option("deletion-vectors.enabled", "true")
                .build();
            catalog.createTable(id, schema, false);
            FileStoreTable table = (FileStoreTable) catalog.getTable(id);
            for (int c = 0; c < 3; c++) {
                BatchWriteBuilder wb = table.newBatchWriteBuilder();
                try (BatchTableWrite w = (BatchTableWrite) wb.newWrite().withIOManager(io); BatchTableCommit cm = wb.newCommit()) {
                    for (long k = c * 100L; k < c * 100L + 200; k++) {
                        w.write(GenericRow.of(k, s("v" + k + "-" + c), s("p" + (k % 3))));
                    }
                    if (c == 2) {
                        for (long k = 0; k < 50; k += 7) {
                            w.write(GenericRow.ofKind(RowKind.DELETE, k, null, s("p" + (k % 3))));
                        }
                    }
                    cm.commit(w.prepareCommit());
                }
            }
            out.append(a > 1 ? "," : "").append('"').append(fmt).append("\":");
            plan(table, out);
        }
        System.out.println(out.append('}'));
    }

    private static FileStoreTable indexed(Catalog catalog, IOManager io) throws Exception {
        Identifier id = Identifier.create("j", "t_index");
        Schema schema = Schema.newBuilder()
            .column("id", DataTypes.INT())
            .column("s", DataTypes.STRING())
            .column("c", DataTypes.BIGINT())
            .column("d", DataTypes.DATE())
            .column("t", DataTypes.STRING())
            .option("bucket", "-1")
            .option("file-index.bloom-filter.columns", "id,s")
            .option("file-index.bloom-filter.id.items", "1000")
            .option("file-index.bloom-filter.s.items", "100")
            .option("file-index.bitmap.columns", "c,d,t")
            .option("file-index.in-manifest-threshold", "2000")
            .build();
        catalog.createTable(id, schema, false);
        FileStoreTable table = (FileStoreTable) catalog.getTable(id);
        int[] sizes = {1000, 5};
        for (int c = 0; c < sizes.length; c++) {
            BatchWriteBuilder wb = table.newBatchWriteBuilder();
            try (BatchTableWrite w = (BatchTableWrite) wb.newWrite().withIOManager(io); BatchTableCommit cm = wb.newCommit()) {
                for (int i = 0; i < sizes[c]; i++) {
                    int k = c * 10000 + i * 3;
                    w.write(GenericRow.of(k, i % 11 == 0 ? null : s("s" + (i % 37)), i % 13 == 0 ? null : (long) (i % 7) - 3,
                                          i % 17 == 0 ? null : 19000 + i % 5, i % 19 == 0 ? null : s("t" + (i * 7 % 23))));
                }
                cm.commit(w.prepareCommit());
            }
        }
        return table;
    }

    private static void plan(FileStoreTable table, StringBuilder out) throws Exception {
            out.append('[');
            boolean first = true;
            for (Split split : table.newReadBuilder().newScan().plan().splits()) {
                DataSplit d = (DataSplit) split;
                List<DataFileMeta> files = d.dataFiles();
                Optional<List<DeletionFile>> dels = d.deletionFiles();
                for (int i = 0; i < files.size(); i++) {
                    DataFileMeta f = files.get(i);
                    DeletionFile df = dels.isPresent() ? dels.get().get(i) : null;
                    out.append(first ? "" : ",").append("{\"file_name\":\"").append(f.fileName()).append("\",\"bucket\":")
                       .append(d.bucket()).append(",\"row_count\":").append(f.rowCount()).append(",\"level\":")
                       .append(f.level()).append(",\"positions\":");
                    if (df == null) {
                        out.append("null");
                    } else {
                        DeletionVector dv = DeletionVector.read(table.fileIO(), df);
                        out.append('[');
                        boolean firstPos = true;
                        for (long p = 0; p < f.rowCount(); p++) {
                            if (dv.isDeleted(p)) {
                                out.append(firstPos ? "" : ",").append(p);
                                firstPos = false;
                            }
                        }
                        out.append(']');
                    }
                    out.append('}');
                    first = false;
                }
            }
            out.append(']');
    }
}
