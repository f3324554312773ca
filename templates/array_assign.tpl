// redistc: assign {{DST}} = {{SRC}}{{SCHEDULE}}{{VERIFY_CLAUSE}}: {{PATH}}
#line {{LINE}} {{INPUT}}
{ auto &redistc_dst = {{DST_VAR}}; const auto &redistc_src = {{SRC_VAR}}; const redist::directive::AssignRegion redistc_region = {{REGION_INIT}};
#line {{OUTPUT_LINE}} {{OUTPUT}}
{{BODY}}
}
#line {{NEXT_LINE}} {{INPUT}}
