@testable import BrowserCore
import Testing

struct DisplayAttributeChoiceTests {
    static func entity(_ name: String, strings: [String], others: [AttributeSchema] = []) -> EntitySchema {
        EntitySchema(name: name, attributes: strings.map { AttributeSchema(name: $0, type: .string) } + others)
    }

    static func sample(_ entity: String, _ rows: [[String: String?]]) -> [StoredRecord] {
        rows.enumerated().map { index, values in
            Make.record(entity, Int64(index + 1), values.mapValues { $0.map(AttributeValue.string) ?? .null })
        }
    }

    @Test func aNameAttributeWinsOverWhatSortsFirst() {
        // The old rule took the alphabetically first String: every cocktail was named after `author.person`.
        let cocktail = Self.entity("Cocktail", strings: ["author.person", "cocktailName", "glass", "instructions"])
        let rows = (1...8).map { ["author.person": "Sam", "cocktailName": "Drink \($0)", "glass": "coupe",
                                  "instructions": String(repeating: "Stir. ", count: 30)] as [String: String?] }
        #expect(DisplayAttributeChoice.choose(for: cocktail, sample: Self.sample("Cocktail", rows)) == "cocktailName")
    }

    @Test func exactNamesComeInTheirOrder() {
        let entity = Self.entity("Book", strings: ["bookTitle", "title", "name"])
        #expect(DisplayAttributeChoice.choose(for: entity, sample: []) == "name")
        let titled = Self.entity("Book", strings: ["bookTitle", "subtitle", "title"])
        #expect(DisplayAttributeChoice.choose(for: titled, sample: []) == "title")
        let prefixed = Self.entity("CDCartItem", strings: ["code", "cartItemName"])
        #expect(DisplayAttributeChoice.choose(for: prefixed, sample: []) == "cartItemName")
    }

    @Test func aNameThatIsAlmostNeverFilledInIsPassedOver() {
        let entity = Self.entity("Person", strings: ["displayName", "email"])
        let rows = (1...10).map { ["displayName": $0 == 1 ? "Ann" : nil, "email": "p\($0)@example.com"] as [String: String?] }
        #expect(DisplayAttributeChoice.choose(for: entity, sample: Self.sample("Person", rows)) == "email")
        // One record is too few to judge how often a name is filled in, not to see that it never is.
        let filled = [["displayName": "Ann", "email": "a@example.com"]] as [[String: String?]]
        #expect(DisplayAttributeChoice.choose(for: entity, sample: Self.sample("Person", filled)) == "displayName")
        let empty = [["displayName": nil, "email": "a@example.com"], ["displayName": "  ", "email": "b@example.com"]]
            as [[String: String?]]
        #expect(DisplayAttributeChoice.choose(for: entity, sample: Self.sample("Person", empty)) == "email")
    }

    @Test func readableTextNamesARecordWhereANameLikeAttributeIsAlwaysNil() {
        // Apple Notes: every syncing object inherits `zoneOwnerName`, nil in a local account; a hashtag's name is
        // its `displayText`, an inline attachment's its `altText`, a media file's its `filename`.
        let uuid = "34FA8C0E-A901-4230-959B-FD1F8139BB7D"
        let hashtag = Self.entity("ICHashtag", strings: ["displayText", "identifier", "standardizedContent", "zoneOwnerName"])
        let tags = [["displayText": "#travel", "identifier": uuid, "standardizedContent": "travel", "zoneOwnerName": nil],
                    ["displayText": "#work", "identifier": uuid, "standardizedContent": "work", "zoneOwnerName": nil]]
        #expect(DisplayAttributeChoice.choose(for: hashtag, sample: Self.sample("ICHashtag", tags)) == "displayText")
        let inline = Self.entity("ICInlineAttachment", strings: ["altText", "identifier", "tokenContentIdentifier", "typeUTI",
                                                                 "zoneOwnerName"])
        let mentions = [["altText": "#travel", "identifier": uuid, "tokenContentIdentifier": "travel",
                         "typeUTI": "com.apple.notes.inlinetextattachment.hashtag", "zoneOwnerName": nil]]
        #expect(DisplayAttributeChoice.choose(for: inline, sample: Self.sample("ICInlineAttachment", mentions)) == "altText")
        let media = Self.entity("ICMedia", strings: ["filename", "identifier", "zoneOwnerName"])
        let files = [["filename": "IMG_0001.jpeg", "identifier": uuid, "zoneOwnerName": nil]]
        #expect(DisplayAttributeChoice.choose(for: media, sample: Self.sample("ICMedia", files)) == "filename")
        #expect(DisplayAttributeChoice.choose(for: media, sample: []) == "filename")
    }

    @Test func amongNameLikeAttributesTheMostReadableValuesWin() {
        let attachment = Self.entity("Attachment", strings: ["additionalIndexableText", "userTitle"])
        let rows = (1...6).map { ["additionalIndexableText": String(repeating: "scanned words ", count: 20),
                                  "userTitle": "Receipt \($0)"] as [String: String?] }
        #expect(DisplayAttributeChoice.choose(for: attachment, sample: Self.sample("Attachment", rows)) == "userTitle")
        // A name that holds identifiers is no name: readable text elsewhere names the record.
        let folder = Self.entity("Folder", strings: ["folderName", "nestedTitle"])
        let folders = [["folderName": "DefaultFolder-LocalAccount", "nestedTitle": "Notes"],
                       ["folderName": "TrashFolder-LocalAccount-0001", "nestedTitle": "Recently Deleted"]]
        #expect(DisplayAttributeChoice.choose(for: folder, sample: Self.sample("Folder", folders)) == "nestedTitle")
    }

    @Test func aStatusOfOneRecordIsNoName() {
        // SwiftData's CartModel: one cart, no displayName, a UUID id, a store reference and a status.
        let cart = Self.entity("CartModel", strings: ["context", "displayName", "id", "status", "storeId"])
        let one = [["context": nil, "displayName": nil, "id": "31D0046D-3C85-410E-BBB0-141FC0105E06", "status": "active",
                    "storeId": "store-legacy"]] as [[String: String?]]
        #expect(DisplayAttributeChoice.choose(for: cart, sample: Self.sample("CartModel", one)) == nil)
    }

    @Test func identifiersAreToldFromNames() {
        for identifier in ["31D0046D-3C85-410E-BBB0-141FC0105E06", "DefaultFolder-LocalAccount", "item-0000042-blue",
                           "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3"] {
            #expect(ValueStatistics.looksLikeIdentifier(Substring(identifier)), "\(identifier)")
        }
        for name in ["Recently Deleted", "Émile Zola", "Subsubfolder", "IMG_0001.jpeg", "R2-D2", "Internationalization"] {
            #expect(!ValueStatistics.looksLikeIdentifier(Substring(name)), "\(name)")
        }
    }

    @Test func valuesDecideWhenNoNameSaysIt() {
        let ingredient = Self.entity("Ingredient", strings: ["amountUnit", "label2", "uuidString", "what"])
        let rows = (1...12).map { index -> [String: String?] in
            ["amountUnit": ["oz", "ml"][index % 2], "label2": String(index),
             "uuidString": "31D0046D-3C85-410E-BBB0-141FC0105E\(String(format: "%02d", index))",
             "what": ["Gin", "Tonic", "Lime", "Mint", "Rum", "Sugar", "Soda", "Ice", "Salt", "Vodka", "Egg", "Cola"][index - 1]]
        }
        #expect(DisplayAttributeChoice.choose(for: ingredient, sample: Self.sample("Ingredient", rows)) == "what")
    }

    @Test func digitsNameARecordOnlyWhenNothingElseDoes() {
        let car = Self.entity("Car", strings: ["maker", "numberPlate"])
        let rows = (1...12).map { ["maker": ["FIAT", "Renault"][$0 % 2], "numberPlate": String(100 + $0)] as [String: String?] }
        #expect(DisplayAttributeChoice.choose(for: car, sample: Self.sample("Car", rows)) == "numberPlate")
    }

    @Test func uuidsAndRepeatedCodesAreNotNames() {
        let album = Self.entity("Album", strings: ["cloudGUID", "kind"])
        let rows = (1...12).map { index -> [String: String?] in
            ["cloudGUID": "31D0046D-3C85-410E-BBB0-141FC0105E\(String(format: "%02d", index))", "kind": "2"]
        }
        #expect(DisplayAttributeChoice.choose(for: album, sample: Self.sample("Album", rows)) == nil)
    }

    @Test func anEmptyEntityFallsBackToPlainStringsThenItsOwnIdentifierNeverAnotherRecords() {
        // SwiftData's CartItemModel: no name-like attribute and no rows. `productId` names the product the line
        // points at (a reference), the currency codes are units, the image a URL: its own `id` is what is left.
        let item = Self.entity("CartItemModel", strings: ["id", "imageURLString", "productId", "totalPriceCurrencyCode",
                                                          "unitPriceCurrencyCode"])
        #expect(DisplayAttributeChoice.choose(for: item, sample: []) == "id")
        let line = Self.entity("CartItem", strings: ["cartItemId", "productId"])
        #expect(DisplayAttributeChoice.choose(for: line, sample: []) == "cartItemId")
        let note = Self.entity("Note", strings: ["id", "body"])
        #expect(DisplayAttributeChoice.choose(for: note, sample: []) == "body")
        // Only references to other records: nothing names it (the summary is then `<Entity> p<pk>`).
        let link = Self.entity("OrderLine", strings: ["orderId", "product_id", "warehouseUUID"])
        #expect(DisplayAttributeChoice.choose(for: link, sample: []) == nil)
        #expect(DisplayAttributeChoice.choose(for: Self.entity("Blob", strings: []), sample: []) == nil)
    }

    @Test func aReferenceToAnotherRecordIsNeverANameEvenWhenItsValuesLookLikeOne() {
        // Distinct, short, present: `productId` would win on its values alone.
        let line = Self.entity("OrderLine", strings: ["productId", "unitCode"])
        let rows = (1...12).map { ["productId": "sku-\($0)-blue", "unitCode": "pcs"] as [String: String?] }
        #expect(DisplayAttributeChoice.choose(for: line, sample: Self.sample("OrderLine", rows)) == nil)
        // Core Data's CDCartItem: one row; its product reference reads "burger" and its currency code "USD", and
        // neither names the line (a unit, a reference); its own id is a UUID. Nothing does.
        let item = Self.entity("CDCartItem", strings: ["id", "imageURL", "productId", "totalPriceCurrencyCode"])
        let one = [["id": "FEAA2483-308A-4FFC-84F0-67CECDE471D0", "imageURL": nil, "productId": "burger",
                    "totalPriceCurrencyCode": "USD"]] as [[String: String?]]
        #expect(DisplayAttributeChoice.choose(for: item, sample: Self.sample("CDCartItem", one)) == nil)
        // The record's own key in another system is not a reference.
        let synced = Self.entity("Photo", strings: ["remoteID"])
        let keys = (1...12).map { ["remoteID": "photo-\($0)"] as [String: String?] }
        #expect(DisplayAttributeChoice.choose(for: synced, sample: Self.sample("Photo", keys)) == "remoteID")
    }

    @Test func foreignReferencesAreToldFromTheRecordsOwnKey() {
        let stem = DisplayAttributeChoice.entityStem("CartItemModel")
        for own in ["id", "ID", "uuid", "identifier", "cartItemId", "cartitem_id", "uniqueID", "remoteId", "cloudUUID"] {
            #expect(!DisplayAttributeChoice.isForeignReference(own, entityStem: stem), "\(own) is the record's own")
        }
        for foreign in ["productId", "productID", "product_id", "storeIdentifier", "ownerUUID", "albumGUID"] {
            #expect(DisplayAttributeChoice.isForeignReference(foreign, entityStem: stem), "\(foreign) points elsewhere")
        }
        for notAnIdentifier in ["valid", "paid", "android", "title"] {
            #expect(!DisplayAttributeChoice.isIdentifier(notAnIdentifier))
        }
    }
}
