import Foundation

/// A store in Core Data's layout with every relationship shape a write must keep (format doc §8): Author (1) ←→
/// Book (2, sub-entity AudioBook 3) one-to-many, ordered on Author's side (`ZBOOK.Z_FOK_AUTHOR`), Cascade;
/// Book ←→ Loan (4) one-to-many with Deny on Book's side and the entity column `ZLOAN.Z2_BOOK` (Book has a
/// sub-entity); Author ←→ Portrait (5) one-to-one (a column on both tables); Book ←→ Tag (6) many-to-many through
/// `Z_2TAGS`, ordered on Book's side (`Z_FOK_6TAGS`).
enum LibraryStore {
    static let uuid = "11B0A7E5-0000-4000-8000-00000000B00C"

    static let model = SyntheticStore.modelXML("""
        <entity name="Author" representedClassName="Author" syncable="YES">
            <attribute name="name" attributeType="String"/>
            <relationship name="books" optional="YES" toMany="YES" ordered="YES" deletionRule="Cascade" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
            <relationship name="portrait" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Portrait" inverseName="author" inverseEntity="Portrait"/>
        </entity>
        <entity name="AudioBook" representedClassName="AudioBook" parentEntity="Book" syncable="YES">
            <attribute name="narrator" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Book" representedClassName="Book" syncable="YES">
            <attribute name="pages" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
            <attribute name="price" optional="YES" attributeType="Decimal"/>
            <attribute name="published" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
            <attribute name="title" attributeType="String"/>
            <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
            <relationship name="loans" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Loan" inverseName="book" inverseEntity="Loan"/>
            <relationship name="tags" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="books" inverseEntity="Tag"/>
        </entity>
        <entity name="Loan" representedClassName="Loan" syncable="YES">
            <attribute name="borrower" optional="YES" attributeType="String"/>
            <relationship name="book" maxCount="1" deletionRule="Nullify" destinationEntity="Book" inverseName="loans" inverseEntity="Book"/>
        </entity>
        <entity name="Portrait" representedClassName="Portrait" syncable="YES">
            <attribute name="caption" optional="YES" attributeType="String"/>
            <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="portrait" inverseEntity="Author"/>
        </entity>
        <entity name="Tag" representedClassName="Tag" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="tags" inverseEntity="Book"/>
        </entity>
        """)

    static let tables = [
        "CREATE TABLE ZAUTHOR ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPORTRAIT INTEGER, ZNAME VARCHAR )",
        "CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPAGES INTEGER, ZAUTHOR INTEGER, Z_FOK_AUTHOR INTEGER, ZPUBLISHED TIMESTAMP, ZPRICE DECIMAL, ZNARRATOR VARCHAR, ZTITLE VARCHAR )",
        "CREATE TABLE ZLOAN ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZBOOK INTEGER, Z2_BOOK INTEGER, ZBORROWER VARCHAR )",
        "CREATE TABLE ZPORTRAIT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHOR INTEGER, ZCAPTION VARCHAR )",
        "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
        "CREATE TABLE Z_2TAGS ( Z_2BOOKS INTEGER, Z_6TAGS INTEGER, Z_FOK_6TAGS INTEGER, PRIMARY KEY (Z_2BOOKS, Z_6TAGS) )",
        "CREATE INDEX Z_2TAGS_Z_6TAGS_INDEX ON Z_2TAGS (Z_6TAGS, Z_2BOOKS)",
    ]

    /// Authors 1 Ann (portrait 1, books 1 and 2 in that order) and 2 Bob (AudioBook 3); Book 4 has no author;
    /// Loan 1 holds Book 2; Book 1 is tagged red, blue (in order), AudioBook 3 red.
    static func make(extraTables: [String] = []) throws -> SyntheticStore {
        try SyntheticStore(
            entities: [.init(number: 1, name: "Author"), .init(number: 2, name: "Book"), .init(number: 3, name: "AudioBook", parent: 2),
                       .init(number: 4, name: "Loan"), .init(number: 5, name: "Portrait"), .init(number: 6, name: "Tag")],
            tables: tables, modelXML: model, walMode: true, uuid: uuid
        ) { database in
            // Extra tables, columns and triggers after the rows (a Core Data trigger would not let them in).
            defer { for extra in extraTables { try? database.execute(extra) } }
            try database.execute("""
                INSERT INTO ZAUTHOR VALUES (1, 1, 1, 1, 'Ann'), (2, 1, 1, NULL, 'Bob');
                INSERT INTO ZBOOK VALUES (1, 2, 1, 100, 1, 1, 600000000, 10.5, NULL, 'First'),
                                         (2, 2, 1, 200, 1, 2, NULL, NULL, NULL, 'Second'),
                                         (3, 3, 1, NULL, 2, 1, NULL, NULL, 'Nora', 'Heard'),
                                         (4, 2, 1, NULL, NULL, NULL, NULL, NULL, NULL, 'Loose');
                INSERT INTO ZLOAN VALUES (1, 4, 1, 2, 2, 'Cy');
                INSERT INTO ZPORTRAIT VALUES (1, 5, 1, 1, 'Ann at home');
                INSERT INTO ZTAG VALUES (1, 6, 1, 'red'), (2, 6, 1, 'blue');
                INSERT INTO Z_2TAGS VALUES (1, 1, 1), (1, 2, 2), (3, 1, 1);
                UPDATE Z_PRIMARYKEY SET Z_MAX = CASE Z_ENT WHEN 1 THEN 2 WHEN 2 THEN 4 WHEN 4 THEN 1 WHEN 5 THEN 1 WHEN 6 THEN 2 ELSE 0 END;
                """)
        }
    }
}
