import BrowserCore

/// What SOURCES.md and the models say about each fixture store: entity counts (sub-entities included, as
/// `count(of:)` reports them), and for each model file shipped with it, the version that matches.
struct FixtureStore: Sendable, CustomStringConvertible {
    let path: String
    let counts: [String: Int]
    /// Where the model comes from with no model named.
    let zeroConfigSource: ModelOrigin.Source
    /// Model files shipped with the store and the version each should resolve to.
    let models: [(path: String, version: String)]

    var description: String { path }

    static let all: [FixtureStore] = [
        FixtureStore(path: "wibosco-migration/CoreDataMigration_Example_1.sqlite", counts: ["Post": 1001],
                     zeroConfigSource: .storeCache,
                     models: [("wibosco-migration/CoreDataMigration_Example.xcdatamodeld", "CoreDataMigration_Example")]),
        FixtureStore(path: "wibosco-migration/CoreDataMigration_Example_2.sqlite", counts: ["Post": 5979],
                     zeroConfigSource: .storeCache,
                     models: [("wibosco-migration/CoreDataMigration_Example.xcdatamodeld", "CoreDataMigration_Example 2")]),
        FixtureStore(path: "wibosco-migration/CoreDataMigration_Example_3.sqlite", counts: ["Color": 7995, "Post": 7995],
                     zeroConfigSource: .storeCache,
                     models: [("wibosco-migration/CoreDataMigration_Example.xcdatamodeld", "CoreDataMigration_Example 3")]),
        FixtureStore(path: "wibosco-migration/CoreDataMigration_Example_WAL.sqlite", counts: ["Color": 84, "Post": 84],
                     zeroConfigSource: .storeCache,
                     models: [("wibosco-migration/CoreDataMigration_Example.xcdatamodeld", "CoreDataMigration_Example 4")]),
        FixtureStore(path: "wibosco-revised/CoreDataMigration_Example_1.sqlite", counts: ["Post": 10],
                     zeroConfigSource: .storeCache,
                     models: [("wibosco-revised/CoreDataMigration_Example.xcdatamodeld", "CoreDataMigration_Example")]),
        FixtureStore(path: "wibosco-revised/CoreDataMigration_Example_2.sqlite", counts: ["Post": 10],
                     zeroConfigSource: .storeCache,
                     models: [("wibosco-revised/CoreDataMigration_Example.xcdatamodeld", "CoreDataMigration_Example 2")]),
        FixtureStore(path: "wibosco-revised/CoreDataMigration_Example_3.sqlite", counts: ["Post": 12, "Section": 14],
                     zeroConfigSource: .storeCache,
                     models: [("wibosco-revised/CoreDataMigration_Example.xcdatamodeld", "CoreDataMigration_Example 3")]),
        FixtureStore(path: "bnr-coredatastack/TestModel.sqlite", counts: ["Author": 0, "Book": 0],
                     zeroConfigSource: .storeCache,
                     models: [("bnr-coredatastack/Sample.xcdatamodeld", "TestModel")]),
        FixtureStore(path: "coredataplus/SampleModel/SampleModel_V1.sqlite",
                     counts: ["Car": 125, "SportCar": 10, "ExpensiveSportCar": 5, "Person": 20],
                     zeroConfigSource: .storeCache,
                     models: [("coredataplus/SampleModel/SampleModel.xcdatamodeld", "SampleModel"),
                              ("coredataplus/SampleModel/SampleModel.momd", "SampleModel"),
                              ("coredataplus/SampleModel/SampleModel.momd/SampleModel.mom", "SampleModel")]),
        FixtureStore(path: "coredataplus/SampleModel/SampleModel_V2.sqlite",
                     counts: ["Car": 125, "SportCar": 10, "LuxuryCar": 5, "Person": 20],
                     zeroConfigSource: .storeCache,
                     models: [("coredataplus/SampleModel/SampleModel.xcdatamodeld", "SampleModel2"),
                              ("coredataplus/SampleModel/SampleModel.momd", "SampleModel2"),
                              ("coredataplus/SampleModel/SampleModel.xcdatamodeld/SampleModel2.xcdatamodel", "SampleModel2")]),
        FixtureStore(path: "coredataplus/SampleModel2/SampleModel2_V1.sqlite",
                     counts: ["Book": 52, "GraphicNovel": 1, "Feedback": 444, "Page": 4970, "Author": 2],
                     zeroConfigSource: .storeCache, models: []),
        FixtureStore(path: "coredataplus/SampleModel2/SampleModel2_V2.sqlite",
                     counts: ["Book": 3, "GraphicNovel": 1, "Feedback": 3, "Page": 119, "Author": 1],
                     zeroConfigSource: .storeCache, models: []),
        FixtureStore(path: "coredataplus/SampleModel3/SampleModel3_V1.sqlite", counts: ["User": 12],
                     zeroConfigSource: .storeCache,
                     models: [("coredataplus/SampleModel3/SampleModel3.xcdatamodeld", "SampleModel3"),
                              ("coredataplus/SampleModel3/SampleModel3.momd", "SampleModel3")]),
        FixtureStore(path: "cartkit/coredata/CartStorage_v1.sqlite",
                     counts: ["CDCart": 1, "CDCartItem": 1, "CDCartItemModifier": 0],
                     zeroConfigSource: .storeCache,
                     models: [("cartkit/coredata/CartStorage.xcdatamodeld", "CartStorage")]),
        FixtureStore(path: "cartkit/swiftdata/CartKitSwiftData_v1.sqlite",
                     counts: ["CartModel": 1, "CartItemModel": 0, "CartItemModifierModel": 0],
                     zeroConfigSource: .storeCache, models: []),
        FixtureStore(path: "restkit-seed/RKSeedDatabase.sqlite", counts: ["Tweet": 20, "User": 2],
                     zeroConfigSource: .inferred, models: []),
        FixtureStore(path: "bookmigration/Model1.sqlite", counts: ["Book": 4, "User": 3],
                     zeroConfigSource: .inferred,
                     models: [("bookmigration/Model.xcdatamodeld", "Model1")]),
    ] + ["1.0.0", "1.1.0", "1.1.2", "1.2.0", "2.0.0"].map { version in
        FixtureStore(path: "jb-model-versions/Example_v\(version).sqlite", counts: ["BasicEntity": 1],
                     zeroConfigSource: .storeCache, models: [("jb-model-versions/Model.xcdatamodeld", "v\(version)")])
    }

    static let withModels: [ModelCase] = all.flatMap { store in
        store.models.map { ModelCase(store: store, model: $0.path, version: $0.version) }
    }
}

struct ModelCase: Sendable, CustomStringConvertible {
    let store: FixtureStore
    let model: String
    let version: String
    var description: String { "\(store.path) + \(model)" }
}
