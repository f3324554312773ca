// redistc: redistribute {{VAR}}({{FORMAT}}){{ONTO}}{{SCHEDULE}}{{VERIFY_CLAUSE}}: static,
// {{FROM}} -> {{TO}} of {{EXTENT_VALUE}} elements
#line {{LINE}} {{INPUT}}
{ auto &redistc_var = {{VAR}};{{USES}}
#line {{OUTPUT_LINE}} {{OUTPUT}}
{{BODY}}
}
#line {{NEXT_LINE}} {{INPUT}}
