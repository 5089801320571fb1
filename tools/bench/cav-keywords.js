// The annotation keywords cav's schemas carry beside JSON Schema's own: `x-cav-ref` and
// `x-cav-ref-keys` (which document kind a field refers to: runtime/format/src/refs.rs) and the
// YAML language server's `enumDescriptions`, `markdownDescription` and `errorMessage`. None of
// them validates anything; declaring them lets Ajv's strict mode (which refuses unknown
// keywords) check the schemas and the bundled documents: `ajv validate --strict=true -c
// ./tools/bench/cav-keywords.js …` (tests/tests/editor.rs).
module.exports = (ajv) => {
  for (const keyword of ["x-cav-ref", "x-cav-ref-keys", "enumDescriptions", "markdownDescription", "errorMessage"]) {
    ajv.addKeyword({ keyword, schemaType: ["string", "array", "object", "boolean"] });
  }
  return ajv;
};
