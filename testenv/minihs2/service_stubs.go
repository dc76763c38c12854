package minihs2

import (
	"context"

	"github.com/beltran/gohive/hiveserver"
)

// GetInfo answers the server and DBMS name and version questions.
func (v *service) GetInfo(ctx context.Context, req *hiveserver.TGetInfoReq) (*hiveserver.TGetInfoResp, error) {
	val := ""
	switch req.InfoType {
	case hiveserver.TGetInfoType_CLI_SERVER_NAME:
		val = "Hive"
	case hiveserver.TGetInfoType_CLI_DBMS_NAME:
		val = "Apache Hive"
	case hiveserver.TGetInfoType_CLI_DBMS_VER:
		val = "3.1.3"
	}
	return &hiveserver.TGetInfoResp{Status: okStatus(), InfoValue: &hiveserver.TGetInfoValue{StringValue: &val}}, nil
}

// GetQueryId returns an operation's query id.
func (v *service) GetQueryId(ctx context.Context, req *hiveserver.TGetQueryIdReq) (*hiveserver.TGetQueryIdResp, error) {
	op, st := v.operation(req.OperationHandle)
	if st != nil {
		return &hiveserver.TGetQueryIdResp{}, nil
	}
	return &hiveserver.TGetQueryIdResp{QueryId: op.queryID}, nil
}

// SetClientInfo accepts and ignores client information.
func (v *service) SetClientInfo(ctx context.Context, req *hiveserver.TSetClientInfoReq) (*hiveserver.TSetClientInfoResp, error) {
	return &hiveserver.TSetClientInfoResp{Status: okStatus()}, nil
}

// The metadata calls are not implemented; they answer with an
// error status.

// GetTypeInfo is not implemented.
func (v *service) GetTypeInfo(ctx context.Context, req *hiveserver.TGetTypeInfoReq) (*hiveserver.TGetTypeInfoResp, error) {
	return &hiveserver.TGetTypeInfoResp{Status: notImplemented("GetTypeInfo")}, nil
}

// GetCatalogs is not implemented.
func (v *service) GetCatalogs(ctx context.Context, req *hiveserver.TGetCatalogsReq) (*hiveserver.TGetCatalogsResp, error) {
	return &hiveserver.TGetCatalogsResp{Status: notImplemented("GetCatalogs")}, nil
}

// GetSchemas is not implemented.
func (v *service) GetSchemas(ctx context.Context, req *hiveserver.TGetSchemasReq) (*hiveserver.TGetSchemasResp, error) {
	return &hiveserver.TGetSchemasResp{Status: notImplemented("GetSchemas")}, nil
}

// GetTables is not implemented.
func (v *service) GetTables(ctx context.Context, req *hiveserver.TGetTablesReq) (*hiveserver.TGetTablesResp, error) {
	return &hiveserver.TGetTablesResp{Status: notImplemented("GetTables")}, nil
}

// GetTableTypes is not implemented.
func (v *service) GetTableTypes(ctx context.Context, req *hiveserver.TGetTableTypesReq) (*hiveserver.TGetTableTypesResp, error) {
	return &hiveserver.TGetTableTypesResp{Status: notImplemented("GetTableTypes")}, nil
}

// GetColumns is not implemented.
func (v *service) GetColumns(ctx context.Context, req *hiveserver.TGetColumnsReq) (*hiveserver.TGetColumnsResp, error) {
	return &hiveserver.TGetColumnsResp{Status: notImplemented("GetColumns")}, nil
}

// GetFunctions is not implemented.
func (v *service) GetFunctions(ctx context.Context, req *hiveserver.TGetFunctionsReq) (*hiveserver.TGetFunctionsResp, error) {
	return &hiveserver.TGetFunctionsResp{Status: notImplemented("GetFunctions")}, nil
}

// GetPrimaryKeys is not implemented.
func (v *service) GetPrimaryKeys(ctx context.Context, req *hiveserver.TGetPrimaryKeysReq) (*hiveserver.TGetPrimaryKeysResp, error) {
	return &hiveserver.TGetPrimaryKeysResp{Status: notImplemented("GetPrimaryKeys")}, nil
}

// GetCrossReference is not implemented.
func (v *service) GetCrossReference(ctx context.Context, req *hiveserver.TGetCrossReferenceReq) (*hiveserver.TGetCrossReferenceResp, error) {
	return &hiveserver.TGetCrossReferenceResp{Status: notImplemented("GetCrossReference")}, nil
}
