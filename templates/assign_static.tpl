// redistc: assign {{DST}} = {{SRC}}{{SCHEDULE}}{{VERIFY_CLAUSE}}: static,
// {{FROM}} -> {{TO}} of {{EXTENT_VALUE}} elements
#line {{LINE}} {{INPUT}}
{ auto &redistc_dst = {{DST}}; const auto &redistc_src = {{SRC}};
#line {{OUTPUT_LINE}} {{OUTPUT}}
{{BODY}}
}
#line {{NEXT_LINE}} {{INPUT}}
