  {{ELSE}}if constexpr ({{CONDITION}}) {
    // {{INSTANCE}}: {{FROM}} -> {{TO}} of {{EXTENT_VALUE}} elements
{{BODY}}
