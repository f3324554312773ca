// redistc: inquire {{VAR}} into {{NAME}}: {{VAR}}'s layout and communicator as
// of here, and its local matrix (redist/runtime/LocalPart.h)
#line {{LINE}} {{INPUT}}
const redist::MatrixInfo {{NAME}}({{DIST}}, {{COMM}});
#line {{NEXT_LINE}} {{INPUT}}
