#ifndef ARCHIVIST_CLIBXML2_SHIM_H
#define ARCHIVIST_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
/* Debian's libxml2 is built with ICU, and its encoding.h then includes the
   system ICU headers, whose types clash with the copy of ICU inside Foundation
   when one program imports both. Archivist uses no libxml2 structure that
   depends on ICU (only opaque reader pointers and xmlError), so the ICU parts
   of the headers are left out. */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>
#endif
