// redistc: assign {{DST}} = {{SRC}}{{SCHEDULE}}: static,
// {{FROM}} -> {{TO}} of {{EXTENT_VALUE}} elements
#line {{LINE}} {{INPUT}}
{ auto &redistc_dst = {{DST}}; const auto &redistc_src = {{SRC}};
#line {{OUTPUT_LINE}} {{OUTPUT}}
{{SCHEDULE_COMMENT}}
{{TABLES}}
  redistc_detail::checkSameComm({{SRC_COMM}}, {{DST_COMM}}, "{{WHERE}}");
  redistc_detail::assignWithTables(redistc_dst, redistc_src, redistc_exchange,
                                   {{SRC_COMM}}, "{{WHERE}}");
}
#line {{NEXT_LINE}} {{INPUT}}
