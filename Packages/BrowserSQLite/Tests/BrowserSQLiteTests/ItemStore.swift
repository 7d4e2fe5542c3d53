import Foundation

/// One row of an `ItemStore`.
struct ItemRow {
    var key: Int64
    var title: String?
    /// A row of the sub-entity Special rather than of Item.
    var special: Bool
}

/// Item(1) with a sub-entity Special(2), both in table ZITEM with one optional String attribute, `title`: the
/// store of the cache, sort and search tests, written in one transaction in Core Data's layout.
enum ItemStore {
    static func make(_ rows: [ItemRow], walMode: Bool = true) throws -> SyntheticStore {
        try SyntheticStore(
            entities: [.init(number: 1, name: "Item"), .init(number: 2, name: "Special", parent: 1)],
            tables: ["CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR )",
                     "CREATE INDEX ZITEM_Z_ENT_INDEX ON ZITEM (Z_ENT)"],
            modelXML: SyntheticStore.modelXML("""
                <entity name="Item" representedClassName="Item" syncable="YES">
                    <attribute name="title" optional="YES" attributeType="String"/>
                </entity>
                <entity name="Special" representedClassName="Special" parentEntity="Item" syncable="YES"/>
                """),
            walMode: walMode
        ) { database in
            try database.execute("BEGIN")
            for row in rows {
                try database.run("INSERT INTO ZITEM VALUES (?, ?, 1, ?)",
                                 [.integer(row.key), .integer(row.special ? 2 : 1), row.title.map { .text($0) } ?? .null])
            }
            try database.execute("COMMIT")
        }
    }
}
