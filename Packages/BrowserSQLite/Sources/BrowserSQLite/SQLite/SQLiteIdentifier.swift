/// Quotes an SQL identifier (table or column name): double quotes around it, embedded double quotes doubled
/// (https://www.sqlite.org/lang_keywords.html). Only names read from the store's own schema reach SQL text;
/// values are always bound.
func quoteIdentifier(_ name: String) -> String {
    var quoted = "\""
    for character in name {
        if character == "\"" { quoted += "\"\"" } else { quoted.append(character) }
    }
    return quoted + "\""
}
