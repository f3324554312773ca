// redistc: redistribute {{VAR}}({{FORMAT}}){{ONTO}}{{SCHEDULE}}{{VERIFY_CLAUSE}}: {{PATH}}
#line {{LINE}} {{INPUT}}
{ auto &redistc_var = {{VAR}}; const redist::directive::ArrayTarget redistc_to = redist::directive::arrayTarget({{FROM_DIST}}.extents(), {{FORMATS}}, {{GRID}}, {{ORDER}}, {{FROM_DIST}}.storage().Order);
#line {{OUTPUT_LINE}} {{OUTPUT}}
{{BODY}}
}
#line {{NEXT_LINE}} {{INPUT}}
