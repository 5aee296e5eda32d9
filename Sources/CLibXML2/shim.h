#ifndef ARCHIVIST_CLIBXML2_SHIM_H
#define ARCHIVIST_CLIBXML2_SHIM_H
#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>
#include <libxml/parserInternals.h>
#endif
