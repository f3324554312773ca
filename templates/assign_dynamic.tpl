// redistc: assign {{DST}} = {{SRC}}{{SCHEDULE}}{{VERIFY_CLAUSE}}: dynamic, because
// {{WHY}}
#line {{LINE}} {{INPUT}}
{ auto &redistc_dst = {{DST}}; const auto &redistc_src = {{SRC}};
#line {{OUTPUT_LINE}} {{OUTPUT}}
{{BODY}}
}
#line {{NEXT_LINE}} {{INPUT}}
